import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as statsRoute } from "@/app/api/v1/stats/calls/route";
import { type CallStatus, calls, mcpServers, tenants } from "@/db/schema";
import type { CallStats } from "@/lib/calls/call-stats";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { createTestAgent, createTestApiKey, drivers, openProcessTestDatabase } from "../fixtures/databases";

/*
 * GET /api/v1/stats/calls through its real route handler, on PGlite and PostgreSQL: known calls with
 * known run times, outcomes and requesters give the rates, error rates, p50/p95 and busiest agents a
 * person can check by hand; calls outside the window or of another workspace do not count.
 */

const origin = "http://localhost";
const noParams = { params: Promise.resolve({}) };
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe.each(drivers)("call statistics on %s", (driver) => {
  let handle: ProcessDatabase;
  let admin: Record<string, string>;
  let agentA: { id: string };
  let agentB: { id: string };

  async function stats(query: string, headers: Record<string, string> = admin) {
    return statsRoute(new Request(`${origin}/api/v1/stats/calls${query}`, { headers }), noParams);
  }
  async function read(query = ""): Promise<CallStats> {
    const res = await stats(query);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as CallStats;
  }

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    const tenantId = handle.defaultTenant.id;
    admin = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
    agentA = await createTestAgent(handle.db, { tenantId, name: "agent-a" });
    agentB = await createTestAgent(handle.db, { tenantId, name: "agent-b" });
    const server = async (name: string, tenant = tenantId) => {
      const [row] = await handle.db
        .insert(mcpServers)
        .values({ tenantId: tenant, name, transport: "stdio", command: "node" })
        .returning({ id: mcpServers.id });
      return row?.id ?? "";
    };
    const alpha = await server("alpha");
    const beta = await server("beta");
    const [other] = await handle.db.insert(tenants).values({ slug: "other", name: "Other" }).returning();
    const otherServer = await server("alpha", other?.id);

    const call = (
      serverId: string,
      requester: { kind: "principal" | "operator"; id: string },
      status: CallStatus,
      durationMs: number | null,
      at: Date,
      options: { isError?: boolean; tenantId?: string } = {},
    ): typeof calls.$inferInsert => ({
      id: randomUUID(),
      tenantId: options.tenantId ?? tenantId,
      requesterKind: requester.kind,
      requesterId: requester.id,
      serverId,
      toolName: "echo",
      gatewayName: "x__echo",
      effect: "read",
      arguments: {},
      status,
      durationMs,
      result: options.isError === undefined ? null : { content: [], isError: options.isError },
      createdAt: at,
    });
    const a = { kind: "principal" as const, id: agentA.id };
    const b = { kind: "principal" as const, id: agentB.id };
    const operator = { kind: "operator" as const, id: "some-operator" };
    await handle.db.insert(calls).values([
      // alpha: 4 calls in the last hour, one failed and one tool error; run times 100…400 ms
      call(alpha, a, "succeeded", 100, minutesAgo(5), { isError: false }),
      call(alpha, a, "succeeded", 200, minutesAgo(10), { isError: false }),
      call(alpha, a, "failed", 300, minutesAgo(20)),
      call(alpha, a, "succeeded", 400, minutesAgo(30), { isError: true }),
      // beta: 3 calls, one denied (never ran), one by an operator
      call(beta, b, "succeeded", 50, minutesAgo(1), { isError: false }),
      call(beta, b, "denied", null, minutesAgo(2)),
      call(beta, operator, "succeeded", 70, minutesAgo(3), { isError: false }),
      // two hours ago: outside the default window, inside 6h
      call(alpha, b, "failed", 5000, minutesAgo(120)),
      call(alpha, b, "failed", 5000, minutesAgo(121)),
      call(alpha, b, "failed", 5000, minutesAgo(122)),
      // another workspace's busy server: never counted here
      call(otherServer, a, "failed", 9000, minutesAgo(1), { tenantId: other?.id }),
    ]);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("per server over the last hour: rates, error rates and p50/p95 run times", async () => {
    const result = await read("?window=1h");
    expect(result.windowMinutes).toBe(60);
    expect(result.servers.map((s) => s.serverName)).toEqual(["alpha", "beta"]);
    const [alpha, beta] = result.servers;
    // percentile_cont over 100, 200, 300, 400: the median is between 200 and 300; p95 is 300 + 0.85 × 100
    expect(alpha).toMatchObject({ calls: 4, errors: 2, errorRate: 0.5, p50Ms: 250, p95Ms: 385 });
    expect(alpha?.callsPerMinute).toBeCloseTo(4 / 60, 3);
    // the denied call has no run time: 50 and 70 only
    expect(beta).toMatchObject({ calls: 3, errors: 0, errorRate: 0, p50Ms: 60, p95Ms: 69 });
    expect(result.totals).toMatchObject({ calls: 7, errors: 2 });
    expect(result.totals.errorRate).toBeCloseTo(2 / 7, 3);
  });

  it("the busiest agents are principals by calls; operators' calls are not listed", async () => {
    const { busiestAgents } = await read();
    expect(busiestAgents).toEqual([
      { principalId: agentA.id, principalName: "agent-a", calls: 4, errors: 2 },
      { principalId: agentB.id, principalName: "agent-b", calls: 2, errors: 0 },
    ]);
  });

  it("a wider window takes in older calls; one server's own numbers", async () => {
    const wide = await read("?window=6h");
    expect(wide.busiestAgents[0]).toMatchObject({ principalName: "agent-b", calls: 5, errors: 3 });
    expect(wide.servers.find((s) => s.serverName === "alpha")).toMatchObject({ calls: 7, errors: 5 });

    const one = await read("?server=beta");
    expect(one.servers.map((s) => s.serverName)).toEqual(["beta"]);
    expect(one.totals).toMatchObject({ calls: 3, errors: 0, p50Ms: 60 });
    expect(one.busiestAgents).toEqual([
      { principalId: agentB.id, principalName: "agent-b", calls: 2, errors: 0 },
    ]);
  });

  it("refuses a bad window, an unknown server, an unknown parameter and a missing key with a 4xx", async () => {
    const badWindow = await stats("?window=2d");
    expect(badWindow.status).toBe(400);
    expect(JSON.stringify(await badWindow.json())).toContain("window is one of 15m, 1h, 6h, 24h");
    const unknown = await stats("?server=nope");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/nope/);
    expect((await stats("?limit=5")).status).toBe(400);
    expect((await stats("?server=", {})).status).toBe(401);
    expect((await stats(`?server=${"x".repeat(500)}`)).status).toBe(400);
  });
});
