import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { POST as postCall } from "@/app/api/v1/calls/route";
import { GET as getLimits, PUT as putLimits } from "@/app/api/v1/policy/limits/route";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import { getCall, listCalls } from "@/lib/calls/read-calls";
import type { Requester } from "@/lib/calls/requester";
import { updateTool } from "@/lib/catalog/governed-tools";
import { type DatabaseDriver, type DatabaseHandle, openDatabase } from "@/lib/db/client";
import { putLimitsPolicy } from "@/lib/limits/limits-policy";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { createTestAgent, createTestApiKey, drivers } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { listenGateway } from "../fixtures/gateway-listener";
import { bearer, sendTo } from "../fixtures/route-request";

/*
 * Call limits (lib/limits) on PGlite and PostgreSQL, against real MCP servers over stdio: a principal
 * over its calls per minute, its calls in flight or its calls waiting for approval is refused at once
 * (429 + Retry-After on REST), the refusal recorded with outcome `rate_limited`; under the limit, calls
 * run. On PostgreSQL a second process (its own connection pool) draws from the same bucket.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(drivers)("call limits (%s)", (driver: DatabaseDriver) => {
  let world: CallsWorld;
  let adminKey: string;
  const db = () => world.handle.db;
  const setLimits = (input: unknown) => putLimitsPolicy(db(), { tenantId: world.tenantId, input, by: null });
  /** A principal of its own per test: buckets and counts of one test do not leak into the next. */
  const newAgent = async (name: string): Promise<Requester & { key: string }> => {
    const agent = await createTestAgent(db(), {
      tenantId: world.tenantId,
      name,
      patterns: ["local-tools__*", "fixture__slow"],
    });
    return { kind: "principal", id: agent.id, name, key: agent.key };
  };
  const call = (requester: Requester, tool: string, args: Record<string, unknown> = {}, on = db()) =>
    executeToolCall(on, { tenantId: world.tenantId, requester, tool, arguments: args });
  const listed = async (status: string) =>
    (
      await listCalls(db(), {
        tenantId: world.tenantId,
        reader: { kind: "workspace" },
        query: { status, limit: "200" },
      })
    ).calls.map((c) => c.id);
  const refusedCallId = (message: string) => /\(call ([0-9a-f-]{36})\)/.exec(message)?.[1] ?? "";

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    adminKey = await createTestApiKey(world.handle, ["admin"]);
    for (const name of ["local-tools__echo", "fixture__slow"])
      await updateTool(db(), {
        tenantId: world.tenantId,
        id: await world.toolId(name),
        input: { effect: "read" },
      });
  });
  afterAll(async () => {
    await setLimits({});
    await world?.close();
  });

  it("a principal over its calls per minute is refused at once with retryAfter; under it, calls run", async () => {
    const agent = await newAgent("per-minute");
    await setLimits({ principals: { "per-minute": { callsPerMinute: 2 } } });
    const first = await call(agent, "local-tools__echo", { text: "one" });
    const second = await call(agent, "local-tools__echo", { text: "two" });
    expect([first.outcome, second.outcome]).toEqual(["succeeded", "succeeded"]);

    const refusal = await call(agent, "local-tools__echo", { text: "three" }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining("limit of 2 calls per minute"),
    });
    const retryAfter = (refusal as { retryAfterSeconds: number }).retryAfterSeconds;
    // Two a minute: the next token is up to 30 s away.
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);

    const refusedId = refusedCallId((refusal as Error).message);
    const { call: recorded } = await getCall(db(), {
      tenantId: world.tenantId,
      reader: { kind: "workspace" },
      callId: refusedId,
    });
    expect(recorded).toMatchObject({
      status: "denied",
      outcome: "rate_limited",
      error: { code: "rate_limited" },
    });
    expect(await listed("rate_limited")).toContain(refusedId);
    expect(await listed("denied")).not.toContain(refusedId);
    expect(await listed("succeeded")).toContain(first.id);

    // Another principal, under the workspace default (unlimited), is not affected.
    const other = await newAgent("per-minute-other");
    expect((await call(other, "local-tools__echo", { text: "free" })).outcome).toBe("succeeded");
  });

  it("a call its principal's limit refuses does not spend the server's allowance", async () => {
    const greedy = await newAgent("spends-nothing");
    const other = await newAgent("gets-the-rest");
    await setLimits({
      principals: { "spends-nothing": { callsPerMinute: 1 } },
      servers: { "local-tools": { callsPerMinute: 3 } },
    });
    expect((await call(greedy, "local-tools__echo", { text: "one" })).outcome).toBe("succeeded");
    for (const text of ["refused", "refused again"])
      await expect(call(greedy, "local-tools__echo", { text })).rejects.toMatchObject({
        code: "rate_limited",
        message: expect.stringContaining('principal "spends-nothing"'),
      });
    // The server ran one call of its three: the refused calls gave their tokens back.
    expect((await call(other, "local-tools__echo", { text: "two" })).outcome).toBe("succeeded");
    expect((await call(other, "local-tools__echo", { text: "three" })).outcome).toBe("succeeded");
    await expect(call(other, "local-tools__echo", { text: "four" })).rejects.toMatchObject({
      message: expect.stringContaining('server "local-tools" is over its limit of 3'),
    });
  });

  it("REST answers 429 with Retry-After and retryAfterSeconds", async () => {
    const agent = await newAgent("rest-limited");
    await setLimits({ principals: { "rest-limited": { callsPerMinute: 1 } } });
    const send = () =>
      sendTo(postCall, "/api/v1/calls", {
        method: "POST",
        headers: bearer(agent.key),
        body: { tool: "local-tools__echo", arguments: { text: "rest" } },
      });
    expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toMatchObject({
      code: "rate_limited",
      retryAfterSeconds: Number(refused.headers.get("retry-after")),
    });
  });

  it("the gateway answers a JSON-RPC error with data.retryAfter, and the call is recorded rate_limited", async () => {
    const agent = await newAgent("gateway-limited");
    await setLimits({ principals: { "gateway-limited": { callsPerMinute: 1 } } });
    const listener = await listenGateway();
    const client = new Client({ name: "limits-test", version: "1.0.0" });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL("/mcp", listener.base), {
          requestInit: { headers: { Authorization: `Bearer ${agent.key}` } },
        }),
      );
      const ok = await client.callTool({ name: "local-tools__echo", arguments: { text: "first" } });
      expect(ok.isError).toBeFalsy();
      const refusal = await client
        .callTool({ name: "local-tools__echo", arguments: { text: "second" } })
        .catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(McpError);
      expect(refusal).toMatchObject({ code: -32029, message: expect.stringContaining("calls per minute") });
      const retryAfter = (refusal as McpError).data as { retryAfter: number };
      expect(retryAfter.retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter.retryAfter).toBeLessThanOrEqual(60);
      const refusedId = refusedCallId((refusal as Error).message);
      expect(await listed("rate_limited")).toContain(refusedId);
    } finally {
      await client.close();
      await listener.close();
    }
  });

  it("a principal at its calls in flight is refused while a slow call runs, and runs again after", async () => {
    const agent = await newAgent("in-flight");
    await setLimits({ principal: { concurrentCalls: 1 } });
    const slow = call(agent, "fixture__slow", { ms: 1500 });
    await eventually(
      async () => ((await listed("running")).length > 0 ? true : undefined),
      "the slow call to be running",
    );
    await expect(call(agent, "local-tools__echo", { text: "meanwhile" })).rejects.toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining("1 calls in flight"),
    });
    expect((await slow).outcome).toBe("succeeded");
    expect((await call(agent, "local-tools__echo", { text: "after" })).outcome).toBe("succeeded");
  });

  it("calls arriving together never pass the calls in flight, however fast they end", async () => {
    const agent = await newAgent("all-at-once");
    await setLimits({ principals: { "all-at-once": { concurrentCalls: 2 } } });
    // Fast calls, sent in one burst: none is on record as running when the others are checked.
    const settled = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => call(agent, "local-tools__echo", { text: `burst ${i}` })),
    );
    const ran = settled.filter((s) => s.status === "fulfilled" && s.value.outcome === "succeeded");
    const refused = settled.filter(
      (s) => s.status === "rejected" && (s.reason as { code?: string }).code === "rate_limited",
    );
    expect(ran).toHaveLength(2);
    expect(refused).toHaveLength(6);
    // Nothing stays held: once they have ended, the next call runs.
    expect((await call(agent, "local-tools__echo", { text: "after the burst" })).outcome).toBe("succeeded");
  });

  it("a server at its calls in flight refuses every caller, operators too", async () => {
    const agent = await newAgent("server-in-flight");
    const admin: Requester = { kind: "operator", id: world.admin.userId, name: "Admin", role: "admin" };
    await setLimits({ servers: { fixture: { concurrentCalls: 1 } } });
    const slow = call(agent, "fixture__slow", { ms: 1500 });
    await eventually(
      async () => ((await listed("running")).length > 0 ? true : undefined),
      "the slow call to be running",
    );
    await expect(call(admin, "fixture__slow", { ms: 1 })).rejects.toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining('The server "fixture"'),
    });
    // Another server is not bound by it.
    expect((await call(admin, "local-tools__echo", { text: "other server" })).outcome).toBe("succeeded");
    await slow;
  });

  it("a principal's calls waiting for approval are capped; reads still run", async () => {
    const agent = await newAgent("queue-capped");
    await setLimits({ principal: { pendingApprovals: 1 } });
    const held = await call(agent, "local-tools__write_note", { title: "a", text: "held" });
    expect(held.status).toBe("pending_approval");
    const refusal = await call(agent, "local-tools__write_note", { title: "b", text: "held too" }).catch(
      (e: unknown) => e,
    );
    expect(refusal).toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining("calls waiting for approval"),
    });
    // Bounded by the first held call's expiry (600 s by default).
    expect((refusal as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(600);
    expect((await call(agent, "local-tools__echo", { text: "read" })).outcome).toBe("succeeded");
  });

  it("limits of 0, negative, fractional or absurd values are a 400 naming the range; null is unlimited", async () => {
    const put = (body: unknown) =>
      sendTo(putLimits, "/api/v1/policy/limits", { method: "PUT", headers: bearer(adminKey), body });
    for (const bad of [0, -5, 1.5, 1e12, "10"]) {
      const res = await put({ principal: { callsPerMinute: bad } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain("from 1 to 100,000");
      expect(res.body.error.fieldErrors["principal.callsPerMinute"]).toBeDefined();
    }
    const tooMany = await put({ servers: { fixture: { concurrentCalls: 5000 } } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toContain("from 1 to 1,000");
    expect((await put({ principal: { burst: 3 } })).status).toBe(400);

    const saved = await put({
      principal: { callsPerMinute: 600 },
      servers: { fixture: { callsPerMinute: null } },
    });
    expect(saved.status).toBe(200);
    const read = await sendTo(getLimits, "/api/v1/policy/limits", { headers: bearer(adminKey) });
    expect(read.body.policy).toEqual({
      principal: { callsPerMinute: 600, concurrentCalls: null, pendingApprovals: null },
      server: { callsPerMinute: null, concurrentCalls: null },
      principals: {},
      servers: { fixture: { callsPerMinute: null } },
    });
  });
});

describe("call limits across processes (postgres)", () => {
  let world: CallsWorld;
  let other: DatabaseHandle;

  beforeAll(async () => {
    world = await openCallsWorld("postgres");
    await updateTool(world.handle.db, {
      tenantId: world.tenantId,
      id: await world.toolId("local-tools__echo"),
      input: { effect: "read" },
    });
    // A second process: its own connection pool to the same database, as another replica has.
    const [row] = await (world.handle.client as postgres.Sql)<
      { name: string }[]
    >`select current_database() as name`;
    const url = new URL(inject("postgresUrl"));
    url.pathname = `/${row?.name}`;
    other = await openDatabase({ driver: "postgres", url: url.toString() });
  });
  afterAll(async () => {
    await other?.close();
    await world?.close();
  });

  it("the second process sees the first's usage of the bucket", async () => {
    const agent = await createTestAgent(world.handle.db, {
      tenantId: world.tenantId,
      name: "two-processes",
      patterns: ["local-tools__*"],
    });
    const requester: Requester = { kind: "principal", id: agent.id, name: "two-processes" };
    await putLimitsPolicy(world.handle.db, {
      tenantId: world.tenantId,
      input: { principal: { callsPerMinute: 3 } },
      by: null,
    });
    const callOn = (handle: DatabaseHandle) =>
      executeToolCall(handle.db, {
        tenantId: world.tenantId,
        requester,
        tool: "local-tools__echo",
        arguments: { text: "shared" },
      });
    // Two in the first process, one in the second: the bucket of three is empty for both.
    expect((await callOn(world.handle)).outcome).toBe("succeeded");
    expect((await callOn(world.handle)).outcome).toBe("succeeded");
    expect((await callOn(other)).outcome).toBe("succeeded");
    await expect(callOn(other)).rejects.toMatchObject({ code: "rate_limited" });
    await expect(callOn(world.handle)).rejects.toMatchObject({ code: "rate_limited" });
  });
});
