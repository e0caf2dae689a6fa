import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogEntries, mcpServers } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { listCalls } from "@/lib/calls/read-calls";
import { handleGatewayRequest } from "@/lib/gateway/handler";
import { type GatewayScope, gatewayPathOf } from "@/lib/gateway/server/tools";
import { registerServer } from "@/lib/servers/registry";
import { type CallsWorld, openCallsWorld } from "../../fixtures/calls-world";
import { createTestAgent, drivers } from "../../fixtures/databases";
import { eventually } from "../../fixtures/eventually";
import { binOf } from "../../fixtures/mcp-servers/pool-harness";

/*
 * Resources, resource templates and prompts through the gateway, in-process (set up as in
 * gateway.test.ts), against the reference server-everything over stdio. A principal granted the
 * whole of `everything` (`everything__*`) sees its resources and prompts, and its reads are calls
 * of their kind in the history; one granted a single tool of it is refused naming that grant (and
 * the attempt is recorded as denied); the world's agent (no grant there) sees nothing.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

const BASE = "http://127.0.0.1:3000";

async function connect(key: string, scope: GatewayScope = "all"): Promise<Client> {
  const path = gatewayPathOf(scope);
  const transport = new StreamableHTTPClientTransport(new URL(path, BASE), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: async (input, init) => handleGatewayRequest(new Request(input, init), { scope }),
  });
  const client = new Client({ name: "gateway-resources-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe.each(drivers)("gateway resources and prompts (in-process, %s, server-everything)", (driver) => {
  let world: CallsWorld;
  let granted: Client;
  let ungranted: Client;
  let grantedKey: string;
  let grantedId: string;
  let oneTool: Client;
  let oneToolId: string;
  let oneToolKey: string;

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    const server = await registerServer(world.handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: world.tenantId,
      input: {
        name: "everything",
        transport: "stdio",
        command: "node",
        args: [binOf("mcp-server-everything"), "stdio"],
      },
    });
    await eventually(async () => {
      const rows = await world.handle.db
        .select({ kind: catalogEntries.kind })
        .from(catalogEntries)
        .innerJoin(mcpServers, eq(mcpServers.id, catalogEntries.serverId))
        .where(and(eq(mcpServers.id, server.id), eq(catalogEntries.kind, "prompt")));
      return rows.length > 0 ? true : undefined;
    }, "server-everything's catalog");
    // A grant of the whole server covers its resources and prompts; one of a single tool does not.
    const reader = await createTestAgent(world.handle.db, {
      tenantId: world.tenantId,
      name: "reader",
      patterns: ["everything__*"],
    });
    grantedKey = reader.key;
    grantedId = reader.id;
    granted = await connect(grantedKey);
    const partial = await createTestAgent(world.handle.db, {
      tenantId: world.tenantId,
      name: "one-tool",
      patterns: ["everything__echo"],
    });
    oneToolId = partial.id;
    oneToolKey = partial.key;
    oneTool = await connect(partial.key);
    ungranted = await connect(world.agent.key);
  });

  afterAll(async () => {
    await granted?.close();
    await ungranted?.close();
    await oneTool?.close();
    await world?.close();
  });

  it("declares resources and prompts", () => {
    expect(granted.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {} });
  });

  it("lists a granted server's resources (URIs unchanged), templates and prefixed prompts on /mcp", async () => {
    const { resources } = await granted.listResources();
    expect(resources).toHaveLength(7);
    expect(resources.every((r) => r.uri.startsWith("demo://"))).toBe(true);
    const { resourceTemplates } = await granted.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThan(0);
    const { prompts } = await granted.listPrompts();
    expect(prompts).toHaveLength(4);
    expect(prompts.every((p) => p.name.startsWith("everything__"))).toBe(true);
    expect(prompts.map((p) => p.name)).toContain("everything__simple-prompt");
  });

  it("reads a resource and gets a prompt through the pooled client, content passed as data", async () => {
    const { resources } = await granted.listResources();
    const first = resources[0];
    if (!first) throw new Error("no resource listed");
    const read = await granted.readResource({ uri: first.uri });
    expect(read.contents[0]).toMatchObject({ uri: first.uri });
    const prompt = await granted.getPrompt({ name: "everything__simple-prompt" });
    expect(prompt.messages.length).toBeGreaterThan(0);
    expect(prompt.messages[0]).toMatchObject({ role: "user", content: { type: "text" } });
  });

  it("reads a URI matched by a resource template", async () => {
    const { resourceTemplates } = await granted.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.uriTemplate.includes("{"));
    if (!template) throw new Error("no template listed");
    const uri = template.uriTemplate.replace(/\{[^}]+\}/g, "1");
    const read = await granted.readResource({ uri });
    expect(read.contents.length).toBeGreaterThan(0);
  });

  it("keeps names unchanged on /mcp/servers/{name}", async () => {
    const single = await connect(grantedKey, { server: "everything" });
    try {
      const { prompts } = await single.listPrompts();
      expect(prompts).toHaveLength(4);
      expect(prompts.map((p) => p.name)).toContain("simple-prompt");
      const prompt = await single.getPrompt({ name: "simple-prompt" });
      expect(prompt.messages.length).toBeGreaterThan(0);
      expect((await single.listResources()).resources).toHaveLength(7);
    } finally {
      await single.close();
    }
  });

  it("refuses unknown URIs and prompts with InvalidParams", async () => {
    const unknown = await refusal(granted.readResource({ uri: "nope://nothing" }));
    expect(unknown.code).toBe(ErrorCode.InvalidParams);
    expect(unknown.message).toMatch(/Unknown resource nope:\/\/nothing/);
    const prompt = await refusal(granted.getPrompt({ name: "everything__no-such-prompt" }));
    expect(prompt.code).toBe(ErrorCode.InvalidParams);
    expect(prompt.message).toMatch(/Unknown prompt/);
  });

  it("shows an ungranted principal nothing of the server and refuses its reads", async () => {
    const { resources } = await ungranted.listResources();
    expect(resources).toEqual([]);
    expect((await ungranted.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await ungranted.listPrompts()).prompts).toEqual([]);
    const { resources: visible } = await granted.listResources();
    const uri = visible[0]?.uri ?? "demo://resource/static/document/architecture.md";
    const read = await refusal(ungranted.readResource({ uri }));
    expect(read.code).toBe(ErrorCode.InvalidParams);
    const prompt = await refusal(ungranted.getPrompt({ name: "everything__simple-prompt" }));
    expect(prompt.code).toBe(ErrorCode.InvalidParams);
    const single = await connect(world.agent.key, { server: "everything" });
    try {
      expect((await single.listPrompts()).prompts).toEqual([]);
      expect((await refusal(single.getPrompt({ name: "simple-prompt" }))).code).toBe(ErrorCode.InvalidParams);
    } finally {
      await single.close();
    }
  });

  it("records reads and prompt gets as calls of their kind, with the principal and outcome", async () => {
    const { resources } = await granted.listResources();
    const uri = resources[0]?.uri ?? "";
    await granted.readResource({ uri });
    await granted.getPrompt({ name: "everything__simple-prompt" });
    const scope = { tenantId: world.tenantId, reader: { kind: "workspace" as const } };
    const reads = await listCalls(world.handle.db, {
      ...scope,
      query: { kind: "resource_read", requester: grantedId },
    });
    expect(reads.calls[0]).toMatchObject({
      kind: "resource_read",
      tool: uri,
      toolName: uri,
      status: "succeeded",
      serverName: "everything",
      effect: "read",
      requester: { kind: "principal", id: grantedId, name: "reader" },
    });
    const prompts = await listCalls(world.handle.db, {
      ...scope,
      query: { kind: "prompt_get", requester: grantedId },
    });
    expect(prompts.calls[0]).toMatchObject({
      kind: "prompt_get",
      tool: "everything__simple-prompt",
      toolName: "simple-prompt",
      status: "succeeded",
    });
    const both = await listCalls(world.handle.db, {
      ...scope,
      query: { kind: "resource_read,prompt_get", requester: grantedId },
    });
    expect(both.calls.every((call) => call.kind !== "tool_call")).toBe(true);
  });

  it("refuses a principal granted one tool of the server, naming the grant it lacks, and records it", async () => {
    const { resources } = await granted.listResources();
    const uri = resources[0]?.uri ?? "";
    const read = await refusal(oneTool.readResource({ uri }));
    expect(read.message).toContain("everything__*");
    const prompt = await refusal(oneTool.getPrompt({ name: "everything__simple-prompt" }));
    expect(prompt.message).toContain("everything__*");
    // On /mcp its lists leave the server out; on the server's own endpoint they are refused.
    expect((await oneTool.listResources()).resources).toEqual([]);
    expect((await oneTool.listPrompts()).prompts).toEqual([]);
    const single = await connect(oneToolKey, { server: "everything" });
    try {
      expect((await refusal(single.listResources())).message).toContain("everything__*");
      expect((await refusal(single.listPrompts())).message).toContain("everything__*");
      // Its tool is still there.
      expect((await single.listTools()).tools.map((tool) => tool.name)).toContain("echo");
    } finally {
      await single.close();
    }
    const denied = await listCalls(world.handle.db, {
      tenantId: world.tenantId,
      reader: { kind: "workspace" },
      query: { requester: oneToolId },
    });
    expect(denied.calls.map((call) => [call.kind, call.status]).sort()).toEqual([
      ["prompt_get", "denied"],
      ["resource_read", "denied"],
    ]);
    expect(denied.calls.find((call) => call.kind === "resource_read")?.error?.message).toContain(
      "everything__*",
    );
  });
});
