import { describe, expect, it } from "vitest";
import { type DiscoverableTool, ToolIndex, wordsOf } from "@/lib/gateway/discovery/tool-search";

/*
 * The ranking's pieces on a handful of tools; the ranking at scale (1,000+ tools, a table of natural
 * queries) is tested through the gateway in tests/integration/gateway/discovery.test.ts.
 */

const entry = (
  server: string,
  name: string,
  description: string,
  effect: DiscoverableTool["effect"] = "unclassified",
  title?: string,
): DiscoverableTool => ({
  tool: {
    name: `${server}__${name}`,
    description,
    inputSchema: { type: "object" },
    ...(title ? { title } : {}),
  },
  server,
  effect,
  governed: { name } as DiscoverableTool["governed"],
});

const index = new ToolIndex([
  entry("github", "create_issue", "Open a new issue in a repository.", "external-write"),
  entry("github", "list_repositories", "List your repositories.", "read"),
  entry("kubernetes", "getPodLogs", "Get the logs of a pod.", "read"),
  entry("slack", "send_message", "Post a message to a channel.", "external-write", "Send Slack message"),
  entry("newsletter", "create_newsletter", "Create a newsletter.", "write"),
  entry("hr", "create_employee", "Create an employee record.", "write"),
]);
const names = (query: string, filters: { server?: string; effect?: string; limit?: number } = {}) =>
  index.find({ query, limit: 10, ...filters }).map((found) => found.tool.name);

describe("tool search", () => {
  it("splits names into words at separators and camelCase", () => {
    expect(wordsOf("github__create_issue")).toEqual(["github", "create", "issue"]);
    expect(wordsOf("getPodLogs")).toEqual(["get", "pod", "logs"]);
    expect(wordsOf("aws-s3 put-object")).toEqual(["aws", "s3", "put", "object"]);
  });

  it("matches plurals, prefixes of longer words and a typo in a long word", () => {
    expect(names("issues")[0]).toBe("github__create_issue");
    expect(names("repo")[0]).toBe("github__list_repositories");
    expect(names("mesage")[0]).toBe("slack__send_message");
  });

  it("reads a short word as the abbreviation of a name's word: gh, k8s", () => {
    expect(names("gh")).toEqual(["github__create_issue", "github__list_repositories"]);
    expect(names("k8s logs")[0]).toBe("kubernetes__getPodLogs");
  });

  it("ignores words that name no tool, and does not read 'new' as a prefix of newsletter", () => {
    expect(names("the a to")).toEqual([]);
    expect(names("new employee")[0]).toBe("hr__create_employee");
  });

  it("searches titles, and filters by server and by enforced effect", () => {
    expect(names("slack")[0]).toBe("slack__send_message");
    expect(names("create", { server: "hr" })).toEqual(["hr__create_employee"]);
    expect(names("create", { effect: "write" }).sort()).toEqual([
      "hr__create_employee",
      "newsletter__create_newsletter",
    ]);
    expect(names("create", { limit: 1 })).toHaveLength(1);
  });

  it("gets a tool by its gateway name only", () => {
    expect(index.get("github__create_issue")?.server).toBe("github");
    expect(index.get("create_issue")).toBeUndefined();
  });
});
