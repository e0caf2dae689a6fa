import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { healthChecks, mcpServers, serverStatus } from "@/db/schema";
import { listCatalogEntries, listServerTools, listSnapshots } from "@/lib/catalog/read-catalog";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { replicaId } from "@/lib/runtime/replica";
import { getServerRuntime, requireServerRuntime } from "@/lib/runtime/server-runtime";
import type { ConnectionState, HealthResult } from "@/lib/upstream/pool-events";
import { parseOrThrow } from "@/lib/validation";
import { listCrashCalls } from "./crash-attribution";
import { getServerRowOrThrow } from "./registry";
import { combineReplicaStates } from "./replica-state";
import { readReplicaStatus } from "./replica-status";

/** What operators do to a live server (REST and dashboard): probe, reconnect, refresh, inspect. */

type ServerRef = { tenantId: string; name: string };

function assertEnabled(row: { enabled: boolean; name: string }) {
  if (!row.enabled) {
    throw new AppError("conflict", `The server "${row.name}" is disabled. Enable it to connect.`);
  }
}

export async function checkServerHealth(db: Database, ref: ServerRef) {
  const row = await getServerRowOrThrow(db, ref);
  assertEnabled(row);
  return (await requireServerRuntime()).pool.healthCheck(row.id);
}

export const healthChecksRequestSchema = z.strictObject({
  servers: z
    .array(z.string({ error: "servers lists server names." }).min(1).max(200), {
      error: "servers lists server names.",
    })
    .min(1, { error: "servers names at least one server (leave it out to check every server)." })
    .max(1_000, { error: "servers names at most 1,000 servers." })
    .optional()
    .meta({ description: "The servers to probe; every enabled server of the workspace when left out." }),
});

/**
 * Probes in flight at once: enough to hide each probe's round trip, few enough to leave calls
 * room. bench:scale, 1,000 HTTP servers on PGlite: 16 → 5.3 s, an agent's echo meanwhile 10 → 110 ms
 * at p50; 4 → 7.5 s, echo 11 → 42 ms.
 */
const HEALTH_CHECKS_IN_FLIGHT = 4;

export type ServerHealthResult = HealthResult & { server: string };

/**
 * POST /api/v1/health-checks: probes many servers in one request, a few at a time. A server that
 * cannot be probed (no connection in this process yet) is a failed result, not a failed request;
 * disabled servers are skipped and listed as such.
 */
export async function checkServersHealth(
  db: Database,
  params: { tenantId: string; input: unknown },
): Promise<{ results: ServerHealthResult[]; skipped: Array<{ server: string; reason: "disabled" }> }> {
  const { servers: names } = parseOrThrow(healthChecksRequestSchema, params.input ?? {}, "The health check");
  const rows = await db
    .select({ id: mcpServers.id, name: mcpServers.name, enabled: mcpServers.enabled })
    .from(mcpServers)
    .where(and(eq(mcpServers.tenantId, params.tenantId), names ? inArray(mcpServers.name, names) : undefined))
    .orderBy(asc(mcpServers.name));
  const unknown = names?.filter((name) => !rows.some((row) => row.name === name)) ?? [];
  if (unknown.length > 0) {
    const list = unknown.map((name) => `"${name}"`).join(", ");
    throw new AppError("not_found", `This workspace has no server named ${list}.`);
  }
  const { pool } = await requireServerRuntime();
  const enabled = rows.filter((row) => row.enabled);
  const results: ServerHealthResult[] = new Array(enabled.length);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < enabled.length; index = next++) {
      const row = enabled[index] as (typeof enabled)[number];
      const result = await pool.healthCheck(row.id).catch(
        (error: unknown): HealthResult => ({
          ok: false,
          latencyMs: null,
          error: error instanceof AppError ? error.message : "The server could not be probed.",
          checkedAt: new Date().toISOString(),
        }),
      );
      results[index] = { server: row.name, ...result };
    }
  };
  await Promise.all(Array.from({ length: Math.min(HEALTH_CHECKS_IN_FLIGHT, enabled.length) }, lane));
  return {
    results,
    skipped: rows.filter((row) => !row.enabled).map((row) => ({ server: row.name, reason: "disabled" })),
  };
}

export async function reconnectServer(db: Database, ref: ServerRef) {
  const row = await getServerRowOrThrow(db, ref);
  assertEnabled(row);
  const runtime = await requireServerRuntime();
  await runtime.pool.reconnect(row.id);
  return { state: runtime.pool.state(row.id) ?? "disconnected" };
}

export async function refreshServerCatalog(db: Database, ref: ServerRef) {
  const row = await getServerRowOrThrow(db, ref);
  assertEnabled(row);
  const { changed, hash, diff, problems } = await (await requireServerRuntime()).refreshCatalog(row);
  return { changed, hash, diff, problems };
}

/**
 * Live diagnostics when this replica's pool knows the server; the last persisted state otherwise.
 * `state` is the server's over every live replica (lib/servers/replica-state.ts), this replica's
 * pool standing in for its own row; `live`, `exit` and the stderr tail are this replica's.
 */
export async function getServerDiagnostics(db: Database, ref: ServerRef) {
  const row = await getServerRowOrThrow(db, ref);
  const runtime = await getServerRuntime();
  const replica = runtime?.replicaId ?? replicaId();
  const live = runtime?.pool.state(row.id) ? runtime.pool.diagnostics(row.id) : undefined;
  const [persisted] = await db.select().from(serverStatus).where(eq(serverStatus.serverId, row.id));
  const { rowsByServer, liveReplicaIds } = await readReplicaStatus(db, {
    tenantId: ref.tenantId,
    serverId: row.id,
  });
  const combined = combineReplicaStates({
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    shared: persisted,
    rows: rowsByServer.get(row.id) ?? [],
    liveReplicaIds,
    own: live ? { id: replica, state: live.state } : undefined,
  });
  const history = await db
    .select({
      ok: healthChecks.ok,
      latencyMs: healthChecks.latencyMs,
      error: healthChecks.error,
      checkedAt: healthChecks.checkedAt,
      replica: healthChecks.replicaId,
    })
    .from(healthChecks)
    .where(and(eq(healthChecks.tenantId, ref.tenantId), eq(healthChecks.serverId, row.id)))
    .orderBy(desc(healthChecks.checkedAt))
    .limit(50);
  const persistedExit =
    persisted && (persisted.exitCode !== null || persisted.exitSignal !== null)
      ? { code: persisted.exitCode, signal: persisted.exitSignal }
      : null;
  const persistedError = row.disabledReason
    ? { message: row.disabledReason, at: row.updatedAt.toISOString() }
    : persisted?.lastError
      ? { message: persisted.lastError, at: persisted.lastErrorAt?.toISOString() }
      : null;
  return {
    server: row.name,
    state: (combined.state ?? "disconnected") as ConnectionState,
    /** The replica that answered: `live`, `exit` and `stderrTail` are its. */
    replica,
    replicas: combined.replicas,
    replicaSummary: combined.replicaSummary,
    live: live ?? null,
    lastError: row.disabledReason ? persistedError : (live?.lastError ?? persistedError),
    exit: live?.exit ?? persistedExit,
    stderrTail: live?.stderr ?? persisted?.stderrTail ?? "",
    healthHistory: history.map((h) => ({ ...h, checkedAt: h.checkedAt.toISOString() })),
    /** The calls running when its process exited on its own, latest first. */
    crashedDuringCalls: await listCrashCalls(db, { tenantId: ref.tenantId, serverId: row.id }),
  };
}

export async function getServerCatalog(
  db: Database,
  ref: ServerRef & { part: "tools" | "resources" | "prompts" | "snapshots" },
) {
  const row = await getServerRowOrThrow(db, ref);
  const scope = { tenantId: ref.tenantId, serverId: row.id };
  switch (ref.part) {
    case "tools":
      return { tools: await listServerTools(db, scope) };
    case "resources":
      return {
        resources: await listCatalogEntries(db, { ...scope, kind: "resource" }),
        resourceTemplates: await listCatalogEntries(db, { ...scope, kind: "resource-template" }),
      };
    case "prompts":
      return { prompts: await listCatalogEntries(db, { ...scope, kind: "prompt" }) };
    case "snapshots":
      return { snapshots: await listSnapshots(db, { ...scope, limit: 50 }) };
  }
}

/** GET /api/v1/servers/{name}/diagnostics, as the browser reads it. */
export type ServerDiagnosticsDto = Awaited<ReturnType<typeof getServerDiagnostics>>;
