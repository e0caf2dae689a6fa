import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress, Tool } from "@modelcontextprotocol/sdk/types.js";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { approvals, calls, events } from "@/db/schema";
import { decideApproval } from "@/lib/approvals/decide-approval";
import { updateTool } from "@/lib/catalog/governed-tools";
import { handleGatewayRequest } from "@/lib/gateway/handler";
import { type GatewayScope, gatewayPathOf } from "@/lib/gateway/server/tools";
import { getServerRuntime, setServerRuntime } from "@/lib/runtime/server-runtime";
import { type CallsWorld, openCallsWorld } from "../../fixtures/calls-world";
import { createTestApiKey, drivers } from "../../fixtures/databases";
import { eventually } from "../../fixtures/eventually";
import { type GatewayListener, listenGateway } from "../../fixtures/gateway-listener";

/*
 * The gateway in-process: a real SDK client speaks streamable HTTP to the gateway's front door on a
 * real listener (plain tool calls answered directly, the rest by handleGatewayRequest), which calls
 * real stdio servers through the governed path.
 * (The same against `next start`, plus the Inspector CLI, is tests/e2e/gateway.spec.ts.)
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

const BASE = "http://127.0.0.1:3000";

let listener: GatewayListener;

/** A real SDK client over real HTTP, through the front door server.mjs serves the gateway with. */
async function connect(key: string, scope: GatewayScope = "all"): Promise<Client> {
  const path = gatewayPathOf(scope);
  const transport = new StreamableHTTPClientTransport(new URL(path, listener.base), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: "gateway-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe.each(drivers)("the MCP gateway (in-process, %s)", (driver) => {
  let world: CallsWorld;
  let client: Client;

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    listener = await listenGateway();
    for (const name of ["local-tools__echo", "local-tools__word_count"]) {
      await updateTool(world.handle.db, {
        tenantId: world.tenantId,
        id: await world.toolId(name),
        input: { effect: "read" },
      });
    }
    await updateTool(world.handle.db, {
      tenantId: world.tenantId,
      id: await world.toolId("local-tools__current_time"),
      input: { effect: "destructive" },
    });
    // Reviewed as external-write: the same gate as an unclassified tool, but no longer "destructive".
    await updateTool(world.handle.db, {
      tenantId: world.tenantId,
      id: await world.toolId("fixture__slow"),
      input: { effect: "external-write" },
    });
    client = await connect(world.agent.key);
  });
  afterAll(async () => {
    await client?.close();
    await listener?.close();
    await world?.close();
  });

  it("refuses a request without a key (401, WWW-Authenticate) and a key of no principal (403)", async () => {
    const post = (headers: Record<string, string>) =>
      handleGatewayRequest(
        new Request(`${BASE}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
        { scope: "all" },
      );
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await anonymous.json()).error.code).toBe(-32001);
    expect((await post({ authorization: "Bearer sb_not-a-real-key-0000000000" })).status).toBe(401);
    const adminKey = await createTestApiKey(world.handle, ["admin", "gateway"]);
    expect((await post({ "x-api-key": adminKey })).status).toBe(403);
  });

  it("lists only granted tools, schemas verbatim, annotations from the enforced effect, meta tools", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "switchboard__get_call",
        "switchboard__wait_call",
        "local-tools__echo",
        "fixture__record",
        "fixture__slow",
      ]),
    );
    expect(names).not.toContain("fixture__big"); // not granted
    const echo = tools.find((t) => t.name === "local-tools__echo");
    expect(echo?.annotations).toEqual({ readOnlyHint: true }); // downstream's idempotentHint etc. not copied
    expect(echo?.inputSchema).toMatchObject({ $schema: expect.any(String), type: "object" });
    const time = tools.find((t) => t.name === "local-tools__current_time");
    expect(time?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true }); // downstream says read-only
    expect(time?.outputSchema).toMatchObject({ type: "object" });
    // Nobody reviewed fixture__record: advertised as MCP's default for a writing tool, destructive.
    const record = tools.find((t) => t.name === "fixture__record");
    expect(record?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    const slow = tools.find((t) => t.name === "fixture__slow");
    expect(slow?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
  });

  it("answers tools/list as the full handler does, and a reclassified tool's hints change at once", async () => {
    const list = async (params?: unknown) => {
      const response = await fetch(new URL("/mcp", listener.base), {
        method: "POST",
        headers: {
          authorization: `Bearer ${world.agent.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: "list-1", method: "tools/list", params }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      return (await response.json()) as { id: string; result: { tools: Tool[] } };
    };
    // Without a cursor the front door answers from the cached list; with one (which the gateway
    // ignores: it has one page) the SDK's server does.
    const direct = await list();
    expect(direct.id).toBe("list-1");
    expect(direct).toEqual(await list({ cursor: "ignored" }));
    const annotationsOf = (answer: { result: { tools: Tool[] } }) =>
      answer.result.tools.find((t) => t.name === "fixture__slow")?.annotations;
    expect(annotationsOf(direct)).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    });

    const slowId = await world.toolId("fixture__slow");
    await updateTool(world.handle.db, {
      tenantId: world.tenantId,
      id: slowId,
      input: { effect: "destructive" },
    });
    try {
      expect(annotationsOf(await list())).toEqual({ readOnlyHint: false, destructiveHint: true });
    } finally {
      await updateTool(world.handle.db, {
        tenantId: world.tenantId,
        id: slowId,
        input: { effect: "external-write" },
      });
    }
  });

  it("serves one server under its tools' own names on /mcp/servers/{name}", async () => {
    const local = await connect(world.agent.key, { server: "local-tools" });
    try {
      const names = (await local.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["echo", "word_count", "switchboard__wait_call"]));
      expect(names).not.toContain("fixture__record");
      const result = await local.callTool({ name: "echo", arguments: { text: "per server" } });
      expect(text(result)).toBe("per server");
    } finally {
      await local.close();
    }
  });

  it("runs a granted read tool and refuses an ungranted one with the reason", async () => {
    const token = `hello gateway ${randomBytes(4).toString("hex")}`;
    const echoed = await client.callTool({ name: "local-tools__echo", arguments: { text: token } });
    expect(echoed.isError).toBeFalsy();
    expect(text(echoed)).toBe(token);
    // Answered before its ending is written (lib/calls/call-journal.ts) — but written it is, with
    // every event, moments later.
    const recorded = await eventually(async () => {
      const [row] = await world.handle.db
        .select({ id: calls.id, status: calls.status, result: calls.result })
        .from(calls)
        .where(sql`${calls.arguments}->>'text' = ${token}`);
      return row?.status === "succeeded" ? row : undefined;
    }, "the call's ending on record");
    expect(recorded.result).toMatchObject({ content: [{ type: "text", text: token }] });
    const timeline = await world.handle.db
      .select({ type: events.type })
      .from(events)
      .where(eq(events.callId, recorded.id))
      .orderBy(events.id);
    expect(timeline.map((e) => e.type)).toEqual(["call.requested", "call.started", "call.succeeded"]);
    const refused = await client.callTool({ name: "fixture__big", arguments: { bytes: 3 } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/has no grant for fixture__big/);
  });

  it("holds an approval-gated call open with progress notices until an operator approves", async () => {
    const token = `t-${randomBytes(4).toString("hex")}`;
    const progress: Progress[] = [];
    const pending = client.callTool({ name: "fixture__record", arguments: { token } }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 60_000,
    });
    const callId = await eventually(async () => {
      const message = progress[0]?.message;
      return message ? /call (\S+)$/.exec(message)?.[1] : undefined;
    }, "a waiting-for-approval notice");
    expect(progress[0]?.message).toBe(`waiting for approval — call ${callId}`);
    await decideApproval(world.handle.db, {
      tenantId: world.tenantId,
      id: callId,
      decision: "approve",
      input: {},
      decider: { kind: "operator", id: world.approvers[0]?.userId ?? "" },
    });
    const result = await pending;
    expect(text(result)).toBe(`recorded ${token}`);
    expect(world.recorded()).toContain(token);
  });

  it("returns a denial with the approver's reason", async () => {
    const progress: Progress[] = [];
    const pending = client.callTool({ name: "fixture__slow", arguments: { ms: 1 } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    const callId = await eventually(
      async () => (progress[0]?.message ? /call (\S+)$/.exec(progress[0].message)?.[1] : undefined),
      "a waiting-for-approval notice",
    );
    await decideApproval(world.handle.db, {
      tenantId: world.tenantId,
      id: callId,
      decision: "deny",
      input: { reason: "not during the freeze" },
      decider: { kind: "operator", id: world.approvers[0]?.userId ?? "" },
    });
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("not during the freeze");
  });

  it("bounds the wait: past it the result names the call, and switchboard__wait_call collects it", async () => {
    vi.stubEnv("SWITCHBOARD_MCP_APPROVAL_WAIT_SECONDS", "1");
    try {
      const token = `t-${randomBytes(4).toString("hex")}`;
      const first = await client.callTool({ name: "fixture__record", arguments: { token } });
      expect(first.isError).toBe(true);
      const callId = /Call (\S+) to fixture__record is still waiting for an approval/.exec(text(first))?.[1];
      expect(callId).toBeDefined();
      expect(text(first)).toContain("switchboard__wait_call");
      const waiting = client.callTool({
        name: "switchboard__wait_call",
        arguments: { callId, timeoutSeconds: 30 },
      });
      await decideApproval(world.handle.db, {
        tenantId: world.tenantId,
        id: callId ?? "",
        decision: "approve",
        input: {},
        decider: { kind: "operator", id: world.approvers[0]?.userId ?? "" },
      });
      expect(text(await waiting)).toBe(`recorded ${token}`);
      const got = await client.callTool({ name: "switchboard__get_call", arguments: { callId } });
      expect(got.structuredContent).toMatchObject({ call: { id: callId, status: "succeeded" } });
    } finally {
      vi.stubEnv("SWITCHBOARD_MCP_APPROVAL_WAIT_SECONDS", "50");
    }
  });

  it("answers a plain tool call of a session as one JSON body, and streams one that asked for progress", async () => {
    const answeredAs: Array<string | null> = [];
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", listener.base), {
      requestInit: { headers: { Authorization: `Bearer ${world.agent.key}` } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (String(init?.body ?? "").includes('"tools/call"'))
          answeredAs.push(response.headers.get("content-type"));
        return response;
      },
    });
    const session = new Client({ name: "gateway-test", version: "1.0.0" });
    await session.connect(transport);
    try {
      expect(transport.sessionId).toBeDefined();
      const plain = await session.callTool({ name: "local-tools__echo", arguments: { text: "plain" } });
      expect(text(plain)).toBe("plain");
      const streamed = await session.callTool(
        { name: "local-tools__echo", arguments: { text: "streamed" } },
        undefined,
        { onprogress: () => {} },
      );
      expect(text(streamed)).toBe("streamed");
      expect(answeredAs).toEqual(["application/json", "text/event-stream"]);
    } finally {
      await session.close();
    }
  });

  it("answers 503 with Retry-After while the process is still starting, recording no call", async () => {
    // server.mjs routes /mcp here as soon as Next.js is up, before the connection pool runs: a call
    // then was recorded and failed ("the connection pool is not running"), where a balancer would
    // have retried a 503 elsewhere (found by tests/cluster/rolling-restart.spec.ts).
    const running = getServerRuntime();
    const before = await world.handle.db.select({ n: sql<number>`count(*)::int` }).from(calls);
    setServerRuntime(undefined);
    try {
      const headers = {
        authorization: `Bearer ${world.agent.key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      };
      const call = (id: number, meta?: Record<string, unknown>) =>
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: {
            name: "local-tools__echo",
            arguments: { text: "too early" },
            ...(meta ? { _meta: meta } : {}),
          },
        });
      // The front door's plain path, and the full handler (a progress token takes that one).
      for (const body of [call(1), call(2, { progressToken: "p" })]) {
        const res = await fetch(`${listener.base}/mcp`, { method: "POST", headers, body });
        expect(res.status).toBe(503);
        expect(res.headers.get("retry-after")).toBe("2");
        expect(await res.json()).toMatchObject({ error: { message: expect.stringContaining("starting") } });
      }
    } finally {
      setServerRuntime(running ? await running : undefined);
    }
    const after = await world.handle.db.select({ n: sql<number>`count(*)::int` }).from(calls);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it("refuses a body over 4 MiB with 413, whether or not it declares its length", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "local-tools__echo", arguments: { text: "x".repeat(4 * 1024 * 1024) } },
    });
    const headers = {
      authorization: `Bearer ${world.agent.key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const declared = await fetch(`${listener.base}/mcp`, { method: "POST", headers, body: huge });
    expect(declared.status).toBe(413);
    const chunked = await fetch(`${listener.base}/mcp`, {
      method: "POST",
      headers,
      body: new Blob([huge]).stream(),
      // @ts-expect-error Node's fetch needs `duplex` for a streamed body; the DOM types lack it.
      duplex: "half",
    });
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({
      error: { message: expect.stringContaining("larger than 4") },
    });
  });

  it("withdraws a waiting call from the approval queue when its client cancels the request", async () => {
    const token = `t-${randomBytes(4).toString("hex")}`;
    const controller = new AbortController();
    // No progress token: the call is answered directly, so its cancellation arrives on another request.
    const pending = client.callTool({ name: "fixture__record", arguments: { token } }, undefined, {
      signal: controller.signal,
      timeout: 60_000,
    });
    const statusOf = async () => {
      const [row] = await world.handle.db
        .select({ id: calls.id, status: calls.status })
        .from(calls)
        .where(sql`${calls.arguments}->>'token' = ${token}`);
      return row;
    };
    const waiting = await eventually(
      async () => ((await statusOf())?.status === "pending_approval" ? statusOf() : undefined),
      "the call waiting for approval",
    );
    controller.abort();
    await expect(pending).rejects.toThrow();
    await eventually(
      async () => ((await statusOf())?.status === "cancelled" ? true : undefined),
      "cancelled",
    );
    const [approval] = await world.handle.db
      .select({ status: approvals.status })
      .from(approvals)
      .where(eq(approvals.callId, waiting?.id ?? ""));
    expect(approval?.status).toBe("cancelled");
    expect(world.recorded()).not.toContain(token);
  });

  it("answers GET and DELETE with 405 (stateless) and 404 everywhere when turned off", async () => {
    const get = await handleGatewayRequest(
      new Request(`${BASE}/mcp`, { headers: { authorization: `Bearer ${world.agent.key}` } }),
      { scope: "all" },
    );
    expect(get.status).toBe(405);
    vi.stubEnv("SWITCHBOARD_MCP_ENABLED", "false");
    try {
      const off = await handleGatewayRequest(new Request(`${BASE}/mcp`, { method: "POST" }), {
        scope: "all",
      });
      expect(off.status).toBe(404);
    } finally {
      vi.stubEnv("SWITCHBOARD_MCP_ENABLED", "true");
    }
  });
});
