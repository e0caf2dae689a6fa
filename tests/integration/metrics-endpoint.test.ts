import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/metrics/route";
import { decideApproval } from "@/lib/approvals/decide-approval";
import { createApiKey } from "@/lib/auth/api-keys";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import type { Requester } from "@/lib/calls/requester";
import { updateTool } from "@/lib/catalog/governed-tools";
import type { DatabaseDriver } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { metricsResponse, startProcessMetrics } from "@/lib/observability/metrics-endpoint";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { createTestApiKey, drivers } from "../fixtures/databases";
import { parseScrape } from "../fixtures/prometheus";

/*
 * GET /metrics as a Prometheus server scrapes it: real calls through the governed path (a
 * success, a tool error, a policy denial, an approval denied by a person) against real stdio MCP
 * servers, then the route's answer parsed by a Prometheus text-format parser — on PGlite and
 * PostgreSQL. Both drivers share this process's metrics, so each test compares before and after.
 */

const TOKEN = randomBytes(24).toString("hex");
vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
vi.stubEnv("SWITCHBOARD_METRICS", "on");
vi.stubEnv("SWITCHBOARD_METRICS_TOKEN", TOKEN);
afterAll(() => {
  vi.unstubAllEnvs();
});

async function scrapeWith(headers: Record<string, string>) {
  const res = await GET(new Request("http://127.0.0.1:3000/metrics", { headers }));
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

async function scrape() {
  const res = await scrapeWith({ authorization: `Bearer ${TOKEN}` });
  expect(res.status).toBe(200);
  return parseScrape(res.text);
}

describe.each(drivers)("GET /metrics (%s)", (driver: DatabaseDriver) => {
  let world: CallsWorld;
  let agent: Requester;
  const call = (tool: string, args: Record<string, unknown>) =>
    executeToolCall(world.handle.db, { tenantId: world.tenantId, requester: agent, tool, arguments: args });

  beforeAll(async () => {
    // As the runtime does at start: before the first event, so the servers' connecting is counted.
    expect(startProcessMetrics()).toBe(true);
    world = await openCallsWorld(driver);
    agent = { kind: "principal", id: world.agent.id, name: world.agent.name };
    for (const name of ["local-tools__echo", "local-tools__current_time"])
      await updateTool(world.handle.db, {
        tenantId: world.tenantId,
        id: await world.toolId(name),
        input: { effect: "read" },
      });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("counts calls by server, tool, principal, outcome and effect, and times them", async () => {
    const before = await scrape();
    const ok = await call("local-tools__echo", { text: "counted" });
    const toolError = await call("local-tools__current_time", { timeZone: "Nowhere/Atlantis" });
    const refused = await call("fixture__big", { bytes: 1 });
    expect([ok.outcome, toolError.outcome, refused.outcome]).toEqual(["succeeded", "tool_error", "denied"]);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    const calls = "switchboard_calls_total";
    const who = { principal: "agent-007", effect: "read" };
    expect(
      moved(calls, { ...who, server: "local-tools", tool: "local-tools__echo", outcome: "succeeded" }),
    ).toBe(1);
    expect(
      moved(calls, {
        ...who,
        server: "local-tools",
        tool: "local-tools__current_time",
        outcome: "tool_error",
      }),
    ).toBe(1);
    // Refused before its server was resolved for this agent: no server named.
    expect(
      moved(calls, { principal: "agent-007", server: "none", tool: "fixture__big", outcome: "denied" }),
    ).toBe(1);
    expect(moved(calls, {})).toBe(3);

    // Both calls that ran reached the server; the refused one never did.
    const downstream = "switchboard_call_downstream_duration_seconds";
    expect(
      after.count(downstream, { server: "local-tools" }) -
        before.count(downstream, { server: "local-tools" }),
    ).toBe(2);
    expect(
      after.count(downstream, { server: "fixture" }) - before.count(downstream, { server: "fixture" }),
    ).toBe(0);
    const total = "switchboard_call_duration_seconds";
    for (const outcome of ["succeeded", "tool_error", "denied"])
      expect(after.count(total, { outcome }) - before.count(total, { outcome })).toBe(1);
    expect(moved("switchboard_events_total", { type: "call.succeeded" })).toBe(2);
  });

  it("reports approvals waiting, and the one an approver denied with how long it waited", async () => {
    const before = await scrape();
    const held = await call("local-tools__write_note", { title: "metrics", text: "held" });
    expect(held.status).toBe("pending_approval");
    const waiting = await scrape();
    expect(
      waiting.value("switchboard_approvals_pending") - before.value("switchboard_approvals_pending"),
    ).toBe(1);

    await decideApproval(world.handle.db, {
      tenantId: world.tenantId,
      id: held.id,
      decision: "deny",
      input: { reason: "not now" },
      decider: { kind: "operator", id: world.approvers[0]?.userId ?? "" },
    });
    const after = await scrape();
    expect(after.value("switchboard_approvals_pending")).toBe(before.value("switchboard_approvals_pending"));
    const decided = { decision: "denied" };
    expect(
      after.value("switchboard_approvals_decided_total", decided) -
        before.value("switchboard_approvals_decided_total", decided),
    ).toBe(1);
    const wait = "switchboard_call_approval_wait_seconds";
    expect(after.count(wait, { server: "local-tools" }) - before.count(wait, { server: "local-tools" })).toBe(
      1,
    );
  });

  it("times the statements a call runs, by operation, with their durations", async () => {
    const query = "switchboard_db_query_duration_seconds";
    const before = await scrape();
    const ok = await call("local-tools__echo", { text: "timed" });
    expect(ok.outcome).toBe("succeeded");
    const after = await scrape();
    // The policy's reads, and the call's record (its start and end written together when it ends fast).
    for (const operation of ["select", "insert"]) {
      const timed = after.count(query, { operation }) - before.count(query, { operation });
      expect(timed, `${operation} statements timed`).toBeGreaterThan(0);
    }
    const seconds = after.sum(query, {}) - before.sum(query, {});
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(60);
  });

  it("shows each connected server as up, the process's memory and its open event streams", async () => {
    const now = await scrape();
    expect(now.value("switchboard_server_up", { server: "local-tools" })).toBe(1);
    expect(now.value("switchboard_server_up", { server: "fixture" })).toBe(1);
    expect(now.value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(now.families.map((f) => f.name)).toContain("switchboard_sse_subscribers");
  });

  it("answers in the Prometheus text format to the scrape token or an owner's admin key, to nobody else", async () => {
    const ok = await scrapeWith({ authorization: `Bearer ${TOKEN}` });
    expect(ok.type).toContain("text/plain");
    expect(ok.text).toContain("# TYPE switchboard_calls_total counter");

    const ownerKey = await createTestApiKey(world.handle, ["admin", "owner"]);
    expect((await scrapeWith({ authorization: `Bearer ${ownerKey}` })).status).toBe(200);

    const none = await scrapeWith({});
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text).error.message).toContain("SWITCHBOARD_METRICS_TOKEN");
    const wrong = await scrapeWith({ authorization: `Bearer ${TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain("switchboard_calls_total");

    // A workspace admin who is not an instance owner: metrics cover every workspace.
    const { key: workspaceAdmin } = await createApiKey(world.handle.db, {
      tenantId: world.tenantId,
      input: { name: "workspace-admin", scopes: ["admin"] },
      by: null,
      instanceOwner: false,
    });
    const refused = await scrapeWith({ authorization: `Bearer ${workspaceAdmin}` });
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain("switchboard_calls_total");
    // An agent's gateway key reads nothing either.
    expect([401, 403]).toContain((await scrapeWith({ authorization: `Bearer ${world.agent.key}` })).status);
  });

  it("answers a token scrape while the database is down, the pending count a gap rather than a stale number", async () => {
    const down = () => Promise.reject(new AppError("database_unavailable", "The database is not answering."));
    const req = (headers: Record<string, string>) =>
      new Request("http://127.0.0.1:3000/metrics", { headers });
    const res = await metricsResponse(req({ authorization: `Bearer ${TOKEN}` }), down);
    expect(res.status).toBe(200);
    const scrape = parseScrape(await res.text());
    expect(scrape.value("switchboard_approvals_pending")).toBeNaN();
    expect(scrape.value("process_resident_memory_bytes")).toBeGreaterThan(0);
    // A key needs the database to be checked: a 503 that says so, never a 500.
    const ownerKey = await createTestApiKey(world.handle, ["admin", "owner"]);
    await expect(metricsResponse(req({ authorization: `Bearer ${ownerKey}` }), down)).rejects.toMatchObject({
      code: "database_unavailable",
    });
  });

  it("is a 404 when metrics are off, even to the right token", async () => {
    vi.stubEnv("SWITCHBOARD_METRICS", "off");
    try {
      const off = await scrapeWith({ authorization: `Bearer ${TOKEN}` });
      expect(off.status).toBe(404);
      expect(off.text).not.toContain("switchboard_");
    } finally {
      vi.stubEnv("SWITCHBOARD_METRICS", "on");
    }
  });
});
