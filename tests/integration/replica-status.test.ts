import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listReplicasRoute } from "@/app/api/v1/replicas/route";
import { GET as diagnosticsRoute } from "@/app/api/v1/servers/[name]/diagnostics/route";
import { GET as getServerRoute } from "@/app/api/v1/servers/[name]/route";
import { GET as listServersRoute } from "@/app/api/v1/servers/route";
import { events, healthChecks, replicas, serverReplicaStatus } from "@/db/schema";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import { AppError } from "@/lib/errors";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { startReplicaHeartbeat, stopReplicaHeartbeat } from "@/lib/runtime/replica";
import { ServerRuntime, setServerRuntime } from "@/lib/runtime/server-runtime";
import { registerServer } from "@/lib/servers/registry";
import type { ServerDiagnosticsDto, ServerDto } from "@/lib/servers/types";
import { createTestApiKey, drivers, openProcessTestDatabase } from "../fixtures/databases";
import { eventually } from "../fixtures/eventually";
import { demoServer, tsxArgs } from "../fixtures/mcp-servers/pool-harness";

/*
 * Replicas named: two runtimes in one process stand for two replicas on one database, each with its
 * own connection pool and replica id. One connects the server; the other is refused (its policy
 * check fails) and crash-loops. What a person reads — the server's state in the list and on its
 * page, each replica's state beside it, "ready on 1 of 2" — comes from both rows; a replica whose
 * heartbeat went stale is listed but not counted, and one that stopped is not listed.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

describe.each(drivers)("per-replica server status on %s", (driver) => {
  let handle: ProcessDatabase;
  let replicaA: ServerRuntime;
  let replicaB: ServerRuntime;
  let auth: Record<string, string>;
  let serverId: string;

  const get = async <T>(route: (req: Request, ctx: never) => Promise<Response>, name = "local-tools") => {
    const res = await route(new Request("http://127.0.0.1:3000/x", { headers: auth }), {
      params: Promise.resolve({ name }),
    } as never);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const rowOf = async (replicaId: string) => {
    const [row] = await handle.db
      .select()
      .from(serverReplicaStatus)
      .where(and(eq(serverReplicaStatus.serverId, serverId), eq(serverReplicaStatus.replicaId, replicaId)));
    return row;
  };

  beforeAll(async () => {
    handle = await openProcessTestDatabase(driver);
    auth = { authorization: `Bearer ${await createTestApiKey(handle, ["admin"])}` };
    // Heartbeats as lib/runtime/replica.ts writes them; replica-c crashed a minute ago.
    await handle.db.insert(replicas).values([
      { id: "replica-a", url: "http://127.0.0.1:1" },
      { id: "replica-b", url: "http://127.0.0.1:2" },
      {
        id: "replica-c",
        url: "http://127.0.0.1:3",
        startedAt: sql`now() - interval '10 minutes'`,
        heartbeatAt: sql`now() - interval '1 minute'`,
      },
    ]);
    replicaA = new ServerRuntime(handle.db, { replicaId: "replica-a" });
    replicaB = new ServerRuntime(handle.db, {
      replicaId: "replica-b",
      checkPolicy: async () => {
        throw new AppError("policy_denied", "Refused on this replica (test).");
      },
      // One failure is a crash loop, probed again only after a minute: B's state holds still.
      supervision: { crashLoopFailures: 1, crashLoopProbeMs: 60_000 },
    });
    await replicaA.start();
    await replicaB.start();
    setServerRuntime(replicaA);
    const server = await registerServer(handle.db, {
      authority: SYSTEM_AUTHORITY,
      tenantId: handle.defaultTenant.id,
      input: {
        name: "local-tools",
        transport: "stdio",
        command: "node",
        args: tsxArgs(demoServer("local-tools.ts")),
      },
    });
    serverId = server.id;
    await eventually(
      async () => ((await rowOf("replica-a"))?.state === "ready" ? true : undefined),
      "A ready",
    );
    await eventually(
      async () => ((await rowOf("replica-b"))?.state === "crash-loop" ? true : undefined),
      "B crash-looping",
    );
    // The crashed replica's last word, and a stopped replica's (its heartbeat row is gone).
    await handle.db.insert(serverReplicaStatus).values([
      { serverId, tenantId: handle.defaultTenant.id, replicaId: "replica-c", state: "needs-authorization" },
      { serverId, tenantId: handle.defaultTenant.id, replicaId: "replica-gone", state: "crash-loop" },
    ]);
  }, 120_000);
  afterAll(async () => {
    await replicaA?.stop();
    await replicaB?.stop();
    setServerRuntime(undefined);
    await handle?.close();
  });

  it("the server shows each replica's state, the worst live one on top, and 'ready on 1 of 2'", async () => {
    const { server } = await get<{ server: ServerDto }>(getServerRoute);
    expect(server.status).toBe("crash-loop");
    expect(server.lastError).toContain("Refused on this replica (test).");
    expect(server.replicaSummary).toEqual({ ready: 1, of: 2 });
    expect(server.replicas.map(({ id, state, live }) => ({ id, state, live }))).toEqual([
      { id: "replica-a", state: "ready", live: true },
      { id: "replica-b", state: "crash-loop", live: true },
      // Listed, not counted: its needs-authorization neither sets the state nor the summary.
      { id: "replica-c", state: "needs-authorization", live: false },
    ]);
    expect(server.replicas[1]?.lastError).toContain("Refused on this replica (test).");
    expect(server.replicas[0]?.updatedAt).toEqual(expect.any(String));

    const { servers } = await get<{ servers: ServerDto[] }>(listServersRoute);
    expect(servers.find((s) => s.name === "local-tools")).toMatchObject({
      status: "crash-loop",
      replicaSummary: { ready: 1, of: 2 },
    });
  });

  it("diagnostics name the replica that answered and agree with the server's state", async () => {
    const diagnostics = await get<ServerDiagnosticsDto>(diagnosticsRoute);
    expect(diagnostics.replica).toBe("replica-a");
    // This replica's own connection is live and ready; the server as a whole is not.
    expect(diagnostics.live?.state).toBe("ready");
    expect(diagnostics.state).toBe("crash-loop");
    expect(diagnostics.replicaSummary).toEqual({ ready: 1, of: 2 });
    expect(diagnostics.replicas.map((r) => [r.id, r.state])).toEqual([
      ["replica-a", "ready"],
      ["replica-b", "crash-loop"],
      ["replica-c", "needs-authorization"],
    ]);
  });

  it("when every live replica has it ready, it is simply ready on 2 of 2", async () => {
    await handle.db
      .update(serverReplicaStatus)
      .set({ state: "ready" })
      .where(and(eq(serverReplicaStatus.serverId, serverId), eq(serverReplicaStatus.replicaId, "replica-b")));
    const { server } = await get<{ server: ServerDto }>(getServerRoute);
    expect(server.status).toBe("ready");
    expect(server.replicaSummary).toEqual({ ready: 2, of: 2 });
  });

  it("state events and health checks carry the replica's id", async () => {
    const changes = await handle.db
      .select({ data: events.data })
      .from(events)
      .where(eq(events.type, "server.state_changed"));
    const byReplica = (id: string) =>
      changes.map((e) => e.data as { replicaId?: string; to: string }).filter((e) => e.replicaId === id);
    expect(byReplica("replica-a").map((e) => e.to)).toContain("ready");
    expect(byReplica("replica-b").map((e) => e.to)).toContain("crash-loop");

    const result = await replicaA.pool.healthCheck(serverId);
    expect(result.ok).toBe(true);
    await replicaA.settled(serverId);
    const [check] = await handle.db.select().from(healthChecks).where(eq(healthChecks.serverId, serverId));
    expect(check?.replicaId).toBe("replica-a");
    const diagnostics = await get<ServerDiagnosticsDto>(diagnosticsRoute);
    expect(diagnostics.healthHistory[0]).toMatchObject({ ok: true, replica: "replica-a" });
  });

  it("GET /api/v1/replicas lists the replicas with which are live, without their addresses", async () => {
    const list = await get<{ self: string; replicas: Array<Record<string, unknown>> }>(listReplicasRoute);
    expect(list.replicas.map((r) => [r.id, r.live])).toEqual([
      ["replica-c", false],
      ["replica-a", true],
      ["replica-b", true],
    ]);
    expect(JSON.stringify(list)).not.toContain("127.0.0.1:");
  });

  it("a live replica's heartbeat sweeps the rows of a replica that stopped; a crashed one's stay", async () => {
    expect(await rowOf("replica-gone")).toBeDefined();
    await startReplicaHeartbeat(handle.db);
    try {
      await eventually(async () => ((await rowOf("replica-gone")) ? undefined : true), "the sweep", 20_000);
      expect((await rowOf("replica-c"))?.state).toBe("needs-authorization");
    } finally {
      await stopReplicaHeartbeat(handle.db);
    }
  });
});
