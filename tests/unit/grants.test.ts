import { describe, expect, it } from "vitest";
import { authorizeRequester, firstRefusal } from "@/lib/calls/call-decision";
import { findGrant, grantMatches, isValidGrantPattern } from "@/lib/policy/grant-patterns";
import { replaceGrantsSchema } from "@/lib/policy/grants";

describe("grant patterns", () => {
  it.each([
    // pattern, gateway name, granted?
    ["*", "github__create_issue", true],
    ["github__*", "github__create_issue", true],
    ["github__*", "github__x", true],
    ["github__*", "github-extra__create_issue", false],
    ["github__*", "gitlab__create_issue", false],
    ["github__create_issue", "github__create_issue", true],
    ["github__create_issue", "github__create_issue_comment", false],
    ["github__create_issue", "github__create", false],
    ["files__read.file", "files__read.file", true],
    ["files__read.file", "files__readXfile", false],
    // A long tool name shortened with a hash suffix keeps its server prefix.
    ["long-server__*", "long-server__a_very_long_tool_name_that_was_cut_5f3a9c1e", true],
  ])("%s covers %s: %s", (pattern, name, granted) => {
    expect(grantMatches(pattern, name)).toBe(granted);
  });

  it("denies by default: no patterns, nothing granted", () => {
    expect(findGrant([], "local-tools__echo")).toBeUndefined();
    expect(findGrant(["files__*"], "local-tools__echo")).toBeUndefined();
    expect(findGrant(["files__*", "local-tools__echo"], "local-tools__echo")).toBe("local-tools__echo");
  });

  it.each([
    ["*", true],
    ["github__*", true],
    ["github__create_issue", true],
    ["my-server__tool.v2-beta_1", true],
    ["", false],
    ["**", false],
    ["github", false],
    ["github__", false],
    ["github*", false],
    ["*__create_issue", false],
    ["Git__x", false],
    ["github__create issue", false],
    ["github__cre*", false],
    ["-github__x", false],
  ])("validates %j: %s", (pattern, valid) => {
    expect(isValidGrantPattern(pattern)).toBe(valid);
  });

  it("replacing grants takes a set: duplicates dropped, sorted, bad patterns named", () => {
    expect(replaceGrantsSchema.parse({ patterns: ["b__*", "a__x", "b__*"] })).toEqual({
      patterns: ["a__x", "b__*"],
    });
    const result = replaceGrantsSchema.safeParse({ patterns: ["ok__*", "bad pattern"] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["patterns", 1]);
  });
});

describe("who may call: grants for principals, roles for operators", () => {
  const principal = { kind: "principal" as const, id: "p1", name: "ci-bot" };
  const operator = (role: "admin" | "approver" | "viewer") => ({
    kind: "operator" as const,
    id: "u1",
    name: "Ann",
    role,
  });

  it.each([
    [principal, [], "local-tools__echo", "deny"],
    [principal, ["local-tools__*"], "local-tools__echo", "allow"],
    [principal, ["files__*"], "local-tools__echo", "deny"],
    [principal, ["*"], "anything__at_all", "allow"],
    // Operators are not bound by grants; their role decides.
    [operator("admin"), [], "local-tools__echo", "allow"],
    [operator("approver"), [], "local-tools__echo", "allow"],
    [operator("viewer"), ["*"], "local-tools__echo", "deny"],
  ] as const)("%o with %j calling %s → %s", (requester, grants, tool, expected) => {
    const decision = authorizeRequester(requester, grants, tool);
    expect(decision.kind).toBe(expected);
    if (decision.kind === "deny") expect(decision.reason).toMatch(/grant|Viewers/);
  });

  it("takes the first refusal in order, and allows only when every step allows", () => {
    const deny = { kind: "deny" as const, reason: "disabled" };
    const hold = { kind: "needs_approval" as const, reason: "risky" };
    const allow = { kind: "allow" as const };
    expect(
      firstRefusal(
        () => allow,
        () => allow,
      ),
    ).toEqual(allow);
    expect(
      firstRefusal(
        () => deny,
        () => hold,
      ),
    ).toEqual(deny);
    expect(
      firstRefusal(
        () => allow,
        () => hold,
      ),
    ).toEqual(hold);
  });
});
