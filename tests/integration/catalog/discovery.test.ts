// Discovery against real servers over real stdio: the third-party reference servers, the demo
// servers, and fixtures with the defects real servers ship.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DiscoveredCatalog, discoverCatalog } from "@/lib/catalog/discovery";
import { detectNameCollisions, toGatewayName } from "@/lib/catalog/naming";
import { AppError } from "@/lib/errors";
import {
  connectStdio,
  everythingServer,
  filesystemServer,
  type StdioConnection,
  tsServer,
} from "../../fixtures/mcp-servers/catalog-connect";

const names = (entries: { name: string }[]) => entries.map((e) => e.name).sort();

/** server-everything registers some tools after `initialized` and announces them: wait for that. */
async function discoverEverything(connection: StdioConnection): Promise<DiscoveredCatalog> {
  await connection.waitForToolListChange(0);
  return discoverCatalog(connection.client);
}

describe("server-everything (stdio), no client capabilities declared", () => {
  let connection: StdioConnection;
  let catalog: DiscoveredCatalog;

  beforeAll(async () => {
    connection = await connectStdio(everythingServer());
    catalog = await discoverEverything(connection);
  });
  afterAll(() => connection?.close());

  it("lists its 13 tools, 7 resources, 2 templates and 4 prompts without problems", () => {
    expect(catalog.problems).toEqual([]);
    expect(names(catalog.tools)).toEqual([
      "echo",
      "get-annotated-message",
      "get-env",
      "get-resource-links",
      "get-resource-reference",
      "get-structured-content",
      "get-sum",
      "get-tiny-image",
      "gzip-file-as-resource",
      "simulate-research-query",
      "toggle-simulated-logging",
      "toggle-subscriber-updates",
      "trigger-long-running-operation",
    ]);
    expect(catalog.resources).toHaveLength(7);
    expect(catalog.resources.every((r) => r.uri.startsWith("demo://resource/static/document/"))).toBe(true);
    expect(catalog.resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      "demo://resource/dynamic/blob/{resourceId}",
      "demo://resource/dynamic/text/{resourceId}",
    ]);
    expect(names(catalog.prompts)).toEqual([
      "args-prompt",
      "completable-prompt",
      "resource-prompt",
      "simple-prompt",
    ]);
  });

  it("keeps tool definitions as sent, schemas and annotations included", () => {
    const sum = catalog.tools.find((t) => t.name === "get-sum");
    expect(sum?.inputSchema).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        a: { type: "number", description: "First number" },
        b: { type: "number", description: "Second number" },
      },
      required: ["a", "b"],
    });
    expect(sum?.annotations).toMatchObject({ readOnlyHint: true });
    expect(sum?.execution).toEqual({ taskSupport: "forbidden" });
  });

  it("reports the server's identity and capabilities", () => {
    expect(catalog.serverInfo?.name).toBe("mcp-servers/everything");
    expect(catalog.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(catalog.instructions).toEqual(expect.any(String));
  });

  it("gives every tool a distinct, valid gateway name", () => {
    const gatewayNames = catalog.tools.map((t) => toGatewayName("everything", t.name));
    expect(gatewayNames).toContain("everything__get-sum");
    for (const name of gatewayNames) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
    expect(
      detectNameCollisions(catalog.tools.map((t) => ({ serverName: "everything", toolName: t.name }))),
    ).toEqual([]);
  });
});

describe("server-everything (stdio), sampling and elicitation declared", () => {
  let connection: StdioConnection;

  beforeAll(async () => {
    connection = await connectStdio(everythingServer(), { sampling: {}, elicitation: {} });
  });
  afterAll(() => connection?.close());

  it("adds the tools that need those capabilities (15), and no roots tool", async () => {
    const catalog = await discoverEverything(connection);
    expect(catalog.tools).toHaveLength(15);
    const toolNames = names(catalog.tools);
    expect(toolNames).toEqual(
      expect.arrayContaining(["trigger-elicitation-request", "trigger-sampling-request"]),
    );
    expect(toolNames).not.toContain("get-roots-list");
  });
});

describe("server-filesystem (stdio) on a temporary folder", () => {
  let connection: StdioConnection;
  let root: string;
  let catalog: DiscoveredCatalog;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "switchboard-discovery-"));
    // No `roots` capability: declaring it would let the client replace the server's allowed folder.
    connection = await connectStdio(filesystemServer(root));
    catalog = await discoverCatalog(connection.client);
  });
  afterAll(async () => {
    await connection?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("lists 14 tools, each with annotations, and asks for nothing it does not declare", () => {
    expect(catalog.problems).toEqual([]);
    expect(catalog.tools).toHaveLength(14);
    expect(catalog.tools.every((t) => typeof t.annotations?.readOnlyHint === "boolean")).toBe(true);
    expect(catalog.capabilities.resources).toBeUndefined();
    expect(catalog.resources).toEqual([]);
    expect(catalog.prompts).toEqual([]);
  });

  it("tells read-only tools from writing ones through their annotations", () => {
    const writers = catalog.tools.filter((t) => t.annotations?.readOnlyHint === false).map((t) => t.name);
    expect(writers.sort()).toEqual(["create_directory", "edit_file", "move_file", "write_file"]);
    const destructive = catalog.tools
      .filter((t) => t.annotations?.destructiveHint === true)
      .map((t) => t.name);
    expect(destructive.sort()).toEqual(["edit_file", "move_file", "write_file"]);
  });
});

describe("demo servers (stdio)", () => {
  const catalogs = new Map<string, DiscoveredCatalog>();
  const connections: StdioConnection[] = [];

  beforeAll(async () => {
    for (const [name, target] of [
      ["local-tools", tsServer("demo-servers/local-tools.ts")],
      ["files", tsServer("demo-servers/files.ts", "demo-servers/sandbox")],
    ] as const) {
      const connection = await connectStdio(target);
      connections.push(connection);
      catalogs.set(name, await discoverCatalog(connection.client));
    }
  });
  afterAll(() => Promise.all(connections.map((c) => c.close())));

  it.each([
    ["local-tools", ["current_time", "echo", "word_count"], ["write_note"]],
    ["files", ["list_directory", "read_file", "search_files"], []],
  ])("%s lists its tools with their schemas, read-only ones said to be", (name, readOnly, writing) => {
    const catalog = catalogs.get(name);
    expect(catalog?.problems).toEqual([]);
    expect(names(catalog?.tools ?? [])).toEqual([...readOnly, ...writing].sort());
    expect(catalog?.tools.every((t) => t.inputSchema.type === "object")).toBe(true);
    expect(names((catalog?.tools ?? []).filter((t) => t.annotations?.readOnlyHint))).toEqual(readOnly);
    // Neither declares resources or prompts, so neither is asked for them.
    expect(catalog?.capabilities).toEqual({ tools: { listChanged: true } });
  });

  it("keeps local-tools' output schema", () => {
    const currentTime = catalogs.get("local-tools")?.tools.find((t) => t.name === "current_time");
    expect(Object.keys(currentTime?.outputSchema?.properties ?? {}).sort()).toEqual([
      "iso",
      "local",
      "timeZone",
      "utcOffset",
    ]);
  });
});

describe("a server with malformed entries, served in pages", () => {
  let connection: StdioConnection;
  let catalog: DiscoveredCatalog;

  beforeAll(async () => {
    connection = await connectStdio(tsServer("tests/fixtures/mcp-servers/catalog-malformed.ts"));
    catalog = await discoverCatalog(connection.client);
  });
  afterAll(() => connection?.close());

  it("keeps the good entries from every page and names each bad one", () => {
    expect(catalog.tools.map((t) => t.name)).toEqual(["good_one", "rich_schema", "good_two"]);
    expect(catalog.resources.map((r) => r.uri)).toEqual([
      "fixture://one",
      "fixture://two",
      "fixture://three",
      "fixture://four",
    ]);
    expect(catalog.prompts.map((p) => p.name)).toEqual(["greet"]);
    expect(catalog.problems).toEqual([
      'tool #3 ("bad tool") was skipped: inputSchema is missing',
      'tool #4 ("string_schema") was skipped: inputSchema.type: Invalid input: expected "object"',
      "tool #5 was skipped: it is not an object",
      'tool #6 ("good_one") was skipped: an earlier tool has the same name',
      'tool #7 ("nul_in_text") was skipped: it contains text that cannot be stored',
      "tool #8 was skipped: name is missing",
      "resource #3 was skipped: uri is missing",
      "resources/templates/list is not implemented although the server declares resources",
      'prompt #2 ("broken") was skipped: arguments: Invalid input: expected array, received string',
    ]);
  });

  it("keeps a definition verbatim: $schema, $defs, $ref, additionalProperties and _meta", () => {
    expect(catalog.tools.find((t) => t.name === "rich_schema")).toEqual({
      name: "rich_schema",
      description: "Keeps its schema verbatim.",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { point: { $ref: "#/$defs/point" } },
        required: ["point"],
        additionalProperties: false,
        $defs: {
          point: {
            type: "object",
            properties: { x: { type: "number" }, y: { type: "number" } },
            additionalProperties: false,
          },
        },
      },
      _meta: { x: 1 },
    });
  });

  it("cuts a list at the entry limit and says so", async () => {
    const limited = await discoverCatalog(connection.client, { maxEntriesPerList: 2 });
    expect(limited.tools.map((t) => t.name)).toEqual(["good_one", "rich_schema"]);
    expect(limited.problems).toContain("the server lists more than 2 tools; only the first 2 were kept");
  });

  it("stops at once when the caller cancels", async () => {
    const controller = new AbortController();
    controller.abort(new Error("shutting down"));
    await expect(discoverCatalog(connection.client, { signal: controller.signal })).rejects.toThrow(
      "shutting down",
    );
  });
});

describe("servers whose lists cannot be read", () => {
  const connections: StdioConnection[] = [];
  afterAll(() => Promise.all(connections.map((c) => c.close())));

  it("stops following a pagination cursor that repeats", async () => {
    const connection = await connectStdio(
      tsServer("tests/fixtures/mcp-servers/catalog-malformed.ts", "cursor-loop"),
    );
    connections.push(connection);
    const catalog = await discoverCatalog(connection.client);
    expect(catalog.tools.map((t) => t.name)).toEqual(["good_one"]);
    expect(catalog.problems).toContain("tools/list kept returning more pages; listing stopped after page 2");
  });

  it("fails as an upstream error when a list is not a list (a partial catalog would look like drift)", async () => {
    const connection = await connectStdio(
      tsServer("tests/fixtures/mcp-servers/catalog-malformed.ts", "no-list"),
    );
    connections.push(connection);
    const error = await discoverCatalog(connection.client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "upstream_error",
      message: "The server's tools/list response has no tools list.",
    });
  });

  it("refuses a client that is not connected", async () => {
    const error = await discoverCatalog(new Client({ name: "idle", version: "0" })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "upstream_unavailable" });
  });
});
