import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  type ClientCapabilities,
  CreateMessageRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { handleGatewayRequest } from "@/lib/gateway/handler";
import { resourceSubscriptions } from "@/lib/gateway/server/subscriptions";
import { gatewaySessions, SESSION_IDLE_MS } from "@/lib/gateway/sessions/sessions";
import { replaceGrants, revokePrincipalKey } from "@/lib/principals/principal-access";
import { drivers } from "../../fixtures/databases";
import { eventually } from "../../fixtures/eventually";
import { type GatewayListener, listenGateway } from "../../fixtures/gateway-listener";
import { initializeRequest } from "../../fixtures/mcp-messages";
import {
  CONFORMANCE_SERVER,
  type ConformanceWorld,
  openConformanceWorld,
} from "../../fixtures/mcp-servers/conformance-world";

/*
 * Stateful gateway sessions in-process: real SDK clients speak streamable HTTP, over a real listener,
 * to the gateway's front door (plain tool calls answered directly, the rest by handleGatewayRequest;
 * hand-made requests go to handleGatewayRequest itself), which runs the conformance fixture server
 * over stdio through the governed call path. What the downstream server sends back while a call
 * runs (log messages, sampling requests) and what changes later (grants, a subscribed resource)
 * must reach the right client — and only a client that can take it.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

const URL_BASE = "http://127.0.0.1:3000";
const PATH = `/mcp/servers/${CONFORMANCE_SERVER}`;
const SCOPE = { server: CONFORMANCE_SERVER };

let listener: GatewayListener;

/** A real SDK client over real HTTP, through the front door server.mjs serves the gateway with. */
async function connect(key: string, capabilities: ClientCapabilities = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(PATH, listener.base), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "gateway-sessions-test", version: "1.0.0" }, { capabilities });
  await client.connect(transport);
  return client;
}

const sessionOf = (client: Client) => (client.transport as StreamableHTTPClientTransport).sessionId ?? "";

/** A hand-made HTTP request to the gateway, for what an SDK client would not send. */
function send(
  method: "GET" | "POST" | "DELETE",
  params: { key: string; sessionId?: string; body?: unknown; path?: string },
): Promise<Response> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${params.key}`,
    accept: method === "GET" ? "text/event-stream" : "application/json, text/event-stream",
    ...(params.body === undefined ? {} : { "content-type": "application/json" }),
    ...(params.sessionId ? { "mcp-session-id": params.sessionId } : {}),
  };
  const body = params.body === undefined ? undefined : JSON.stringify(params.body);
  const scope = params.path === "/mcp" ? "all" : SCOPE;
  return handleGatewayRequest(new Request(`${URL_BASE}${params.path ?? PATH}`, { method, headers, body }), {
    scope,
  });
}

const initialize = initializeRequest("by-hand", "2025-11-25");
const rpc = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 7,
  method,
  params,
});

/** The JSON-RPC messages of a response, whether plain JSON or an event stream. */
async function messagesOf(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.includes("text/event-stream")) return [JSON.parse(text)];
  return (
    text
      .split("\n")
      // Resumable streams start with a priming event (an id, empty data): it carries no message.
      .filter((line) => line.startsWith("data: ") && line.length > "data: ".length)
      .map((line) => JSON.parse(line.slice("data: ".length)))
  );
}

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe.each(drivers)("gateway sessions (in-process, %s, the conformance fixture over stdio)", (driver) => {
  let world: ConformanceWorld;

  beforeAll(async () => {
    world = await openConformanceWorld(driver);
    listener = await listenGateway();
  });
  afterAll(async () => {
    await gatewaySessions.closeAll();
    await listener?.close();
    await world?.close();
  });

  it("opens a session on initialize, serves every later request on it, and ends it on DELETE", async () => {
    const before = gatewaySessions.size;
    const client = await connect(world.agent.key);
    const id = sessionOf(client);
    expect(id).not.toBe("");
    expect(gatewaySessions.get(id)).toBeDefined();
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("test_simple_text");
    expect(text(await client.callTool({ name: "test_simple_text" }))).toBe(
      "This is a simple text response for testing.",
    );
    expect(gatewaySessions.size).toBe(before + 1);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    expect(gatewaySessions.get(id)).toBeUndefined();
    await client.close();
  });

  it("streams on GET; after DELETE, GET and DELETE answer 404 and a POST is answered statelessly", async () => {
    const opened = await send("POST", { key: world.agent.key, body: initialize });
    const sessionId = opened.headers.get("mcp-session-id") ?? "";
    expect(sessionId).not.toBe("");
    expect((await messagesOf(opened))[0]).toMatchObject({ result: { serverInfo: { name: "switchboard" } } });

    const stream = await send("GET", { key: world.agent.key, sessionId });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    expect((await send("GET", { key: world.agent.key, sessionId })).status).toBe(409); // one stream per session
    await stream.body?.cancel();

    expect((await send("DELETE", { key: world.agent.key, sessionId })).status).toBe(200);
    expect(gatewaySessions.get(sessionId)).toBeUndefined();
    expect((await send("GET", { key: world.agent.key, sessionId })).status).toBe(404);
    expect((await send("DELETE", { key: world.agent.key, sessionId })).status).toBe(404);

    // Like a session of another replica, or from before a restart: plain requests still work.
    const listed = await send("POST", { key: world.agent.key, sessionId, body: rpc("tools/list") });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("mcp-session-id")).toBeNull();
    const [answer] = await messagesOf(listed);
    expect(JSON.stringify(answer)).toContain("test_simple_text");
  });

  it("resumes a dropped event stream with Last-Event-ID when turned on: what was sent meanwhile arrives", async () => {
    vi.stubEnv("SWITCHBOARD_MCP_RESUMABLE_STREAMS", "true");
    const agent = await world.createAgent("resumer");
    const headers = (extra: Record<string, string> = {}) => ({
      authorization: `Bearer ${agent.key}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2025-11-25",
      ...extra,
    });
    const request = (method: string, extra: Record<string, string>, body?: unknown) =>
      handleGatewayRequest(
        new Request(`${URL_BASE}${PATH}`, {
          method,
          headers: headers(extra),
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        { scope: SCOPE },
      );
    const opened = await request("POST", {}, initialize);
    const sessionId = opened.headers.get("mcp-session-id") ?? "";
    await opened.text();
    await request(
      "POST",
      { "mcp-session-id": sessionId },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    );

    // A first change arrives on the live stream, with an event id to resume from.
    const regrant = (pattern: string) =>
      replaceGrants(world.handle.db, {
        tenantId: world.tenantId,
        principalId: agent.id,
        input: { patterns: [`${CONFORMANCE_SERVER}__${pattern}`] },
        by: null,
      });
    const live = await request("GET", { "mcp-session-id": sessionId });
    const reader = live.body?.getReader();
    await regrant("test_simple_text");
    let seen = "";
    while (!seen.includes("list_changed")) seen += new TextDecoder().decode((await reader?.read())?.value);
    const lastEventId = /^id: (\S+)$/m.exec(seen)?.[1] ?? "";
    expect(lastEventId).not.toBe("");
    await reader?.cancel();

    // While the client is away, its grants change again: that list_changed is kept for it.
    await regrant("test_image_content");
    const resumed = await eventually(async () => {
      const response = await request("GET", { "mcp-session-id": sessionId, "last-event-id": lastEventId });
      if (response.status !== 200) return undefined;
      const body = response.body?.getReader();
      // The rest of the first change (resources, prompts) comes first, then the one missed.
      let replayed = "";
      for (let i = 0; i < 10 && !replayed.includes("notifications/tools/list_changed"); i++)
        replayed += new TextDecoder().decode((await body?.read())?.value);
      await body?.cancel();
      return replayed.includes("notifications/tools/list_changed") ? replayed : undefined;
    }, "the missed list_changed replayed");
    expect(resumed).toMatch(/^id: \S+$/m);
    await request("DELETE", { "mcp-session-id": sessionId });
    vi.stubEnv("SWITCHBOARD_MCP_RESUMABLE_STREAMS", "false");
  });

  it("serves a session only to the principal that opened it, on the endpoint it was opened on", async () => {
    const client = await connect(world.agent.key);
    const other = await world.createAgent("intruder");
    try {
      const sessionId = sessionOf(client);
      const stolen = await send("POST", { key: other.key, sessionId, body: rpc("tools/list") });
      expect(stolen.status).toBe(403);
      const elsewhere = await send("POST", {
        key: world.agent.key,
        sessionId,
        path: "/mcp",
        body: rpc("tools/list"),
      });
      expect(elsewhere.status).toBe(404);
      expect(gatewaySessions.get(sessionId)).toBeDefined();
    } finally {
      await client.close();
    }
  });

  it("relays the downstream server's log messages of a call, at the level the session asked for", async () => {
    const client = await connect(world.agent.key);
    const logs: LoggingMessageNotification["params"][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    try {
      await client.setLoggingLevel("warning");
      await client.callTool({ name: "test_tool_with_logging" }); // info messages: filtered out
      await client.setLoggingLevel("info");
      await client.callTool({ name: "test_tool_with_logging" });
      await eventually(async () => (logs.length >= 3 ? true : undefined), "three log messages");
      expect(logs.map((log) => log.data)).toEqual([
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
      ]);
    } finally {
      await client.close();
    }
  });

  it("relays a sampling request to the client that declared sampling, and refuses it cleanly otherwise", async () => {
    const sampler = await connect(world.agent.key, { sampling: {} });
    const prompts: unknown[] = [];
    sampler.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      prompts.push(request.params.messages[0]?.content);
      return { role: "assistant", content: { type: "text", text: "forty-two" }, model: "test-model" };
    });
    const plain = await connect(world.agent.key);
    try {
      const answered = await sampler.callTool({
        name: "test_sampling",
        arguments: { prompt: "meaning of life?" },
      });
      expect(text(answered)).toBe("LLM response: forty-two");
      expect(prompts).toEqual([{ type: "text", text: "meaning of life?" }]);

      const refused = await plain.callTool({ name: "test_sampling", arguments: { prompt: "anyone?" } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain("did not declare the sampling capability");

      const oneShot = await send("POST", {
        key: world.agent.key,
        body: rpc("tools/call", { name: "test_sampling", arguments: { prompt: "stateless?" } }),
      });
      const [answer] = await messagesOf(oneShot);
      expect(answer).toMatchObject({ result: { isError: true } });
      expect(JSON.stringify(answer)).toContain("came without a session");
    } finally {
      await sampler.close();
      await plain.close();
    }
  });

  it("tells a session its tools changed when its principal's grants change", async () => {
    const agent = await world.createAgent("regranted");
    const client = await connect(agent.key);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("test_sampling");
      await replaceGrants(world.handle.db, {
        tenantId: world.tenantId,
        principalId: agent.id,
        input: { patterns: [`${CONFORMANCE_SERVER}__test_simple_text`] },
        by: null,
      });
      await eventually(async () => (changes > 0 ? true : undefined), "notifications/tools/list_changed");
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("test_simple_text");
      expect(names).not.toContain("test_sampling");
    } finally {
      await client.close();
    }
  });

  it("relays updates of a subscribed resource; subscribing needs a session", async () => {
    const client = await connect(world.agent.key);
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    try {
      await client.subscribeResource({ uri: "test://watched-resource" });
      await eventually(
        async () => (updated.length > 0 ? true : undefined),
        "notifications/resources/updated",
      );
      expect(updated[0]).toBe("test://watched-resource");
      await client.unsubscribeResource({ uri: "test://watched-resource" });

      const oneShot = await send("POST", {
        key: world.agent.key,
        body: rpc("resources/subscribe", { uri: "test://watched-resource" }),
      });
      const [answer] = await messagesOf(oneShot);
      expect(JSON.stringify(answer)).toContain("needs a session");
    } finally {
      await client.close();
    }
  });

  it("subscribes again when the server reconnects, so updates keep coming", async () => {
    const client = await connect(world.agent.key);
    let updates = 0;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
      updates++;
    });
    try {
      await client.subscribeResource({ uri: "test://watched-resource" });
      await eventually(async () => (updates === 1 ? true : undefined), "the first update");
      // A new server process knows no subscriptions; the fixture sends one update per subscribe.
      await world.runtime.pool.reconnect(world.serverId);
      await eventually(async () => (updates === 2 ? true : undefined), "an update after the reconnect");
    } finally {
      await client.close();
    }
  });

  it("leaves a session that closed while its subscribe was in flight watching nothing", async () => {
    let open = true;
    const subscribing = resourceSubscriptions.subscribe({
      serverId: world.serverId,
      uri: "test://watched-resource",
      sessionId: "closes-while-subscribing",
      deliver: () => {},
      sessionOpen: () => open,
      stillPermitted: async () => true,
    });
    // The session ends before the downstream server has answered the subscribe.
    open = false;
    resourceSubscriptions.dropSession("closes-while-subscribing");
    await subscribing;
    expect(resourceSubscriptions.watchedBy("closes-while-subscribing")).toEqual([]);
  });

  it("refuses a subscribe whose grant went away while it was in flight, watching nothing", async () => {
    const subscribing = resourceSubscriptions.subscribe({
      serverId: world.serverId,
      uri: "test://watched-resource",
      sessionId: "loses-grant-while-subscribing",
      deliver: () => {},
      sessionOpen: () => true,
      // As the handler finds it once the downstream answered: the grant was replaced meanwhile.
      stillPermitted: async () => false,
    });
    await expect(subscribing).rejects.toThrow(/may no longer use/);
    expect(resourceSubscriptions.watchedBy("loses-grant-while-subscribing")).toEqual([]);
  });

  it("ends a session's subscriptions on a server its principal is no longer granted", async () => {
    const agent = await world.createAgent("losing-access");
    const client = await connect(agent.key);
    try {
      await client.subscribeResource({ uri: "test://watched-resource" });
      expect(resourceSubscriptions.watchedBy(sessionOf(client))).toEqual(["test://watched-resource"]);
      // A grant on another server only: nothing of this one may reach the principal any more.
      await replaceGrants(world.handle.db, {
        tenantId: world.tenantId,
        principalId: agent.id,
        input: { patterns: ["some-other-server__*"] },
        by: null,
      });
      await eventually(
        async () => (resourceSubscriptions.watchedBy(sessionOf(client)).length === 0 ? true : undefined),
        "the subscription ended",
      );
    } finally {
      await client.close();
    }
  });

  it("closes a session left idle (clients often go without a DELETE), never one in use", async () => {
    const opened = await send("POST", { key: world.agent.key, body: initialize });
    const idle = opened.headers.get("mcp-session-id") ?? "";
    await opened.text();
    const listening = await connect(world.agent.key); // holds its GET stream open
    try {
      await eventually(
        async () => (gatewaySessions.get(sessionOf(listening))?.idleSince() === undefined ? true : undefined),
        "the listening client's GET stream",
      );
      gatewaySessions.sweep(Date.now() + SESSION_IDLE_MS + 1);
      await eventually(async () => (gatewaySessions.get(idle) ? undefined : true), "the idle session closed");
      expect(gatewaySessions.get(sessionOf(listening))).toBeDefined();
    } finally {
      await listening.close();
    }
  });

  it("closes the sessions of a revoked key", async () => {
    const agent = await world.createAgent("revoked");
    const client = await connect(agent.key);
    const sessionId = sessionOf(client);
    try {
      expect(gatewaySessions.get(sessionId)).toBeDefined();
      await revokePrincipalKey(world.handle.db, {
        tenantId: world.tenantId,
        principalId: agent.id,
        keyId: agent.keyId,
        by: null,
      });
      await eventually(async () => (gatewaySessions.get(sessionId) ? undefined : true), "the session closed");
    } finally {
      await client.close();
    }
  });
});
