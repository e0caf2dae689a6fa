import { and, desc, eq, gte, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { calls, mcpServers, principals } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { callsOnRecord } from "./call-journal";
import { outcomeCondition } from "./call-outcome";

/**
 * Call statistics over a recent window, read from the calls table (the record every dashboard
 * already trusts), not from Prometheus: the Overview and a server's page work without a metrics
 * pipeline, and show the same numbers as GET /api/v1/stats/calls.
 *
 * Decided: every call requested in the window counts (denied and waiting ones too); an *error* is a
 * call that failed or whose tool answered `isError: true`; latency is the run time (`duration_ms`,
 * from the start of the downstream request to its answer), so approval waits do not skew it, and
 * percentiles come from `percentile_cont`, which PostgreSQL and PGlite both have.
 */

export const statsWindows = { "15m": 15, "1h": 60, "6h": 360, "24h": 1440 } as const;
export type StatsWindow = keyof typeof statsWindows;
const windowNames = Object.keys(statsWindows) as [StatsWindow, ...StatsWindow[]];

/** The busiest agents listed: enough for a dashboard card, bounded whatever the workspace holds. */
export const BUSIEST_AGENTS = 10;
// A workspace's servers are few; the cap only bounds a hostile or runaway registry.
const MAX_SERVERS = 200;

export const callStatsQuerySchema = z.strictObject({
  window: z.enum(windowNames, { error: `window is one of ${windowNames.join(", ")}.` }).default("1h"),
  server: z.string().trim().min(1).max(100).optional(),
});

export type CallRates = {
  calls: number;
  /** failed, or the tool answered with an error */
  errors: number;
  callsPerMinute: number;
  /** errors / calls, 0 to 1; 0 when there were no calls */
  errorRate: number;
  /** run time percentiles in milliseconds; null when no call in the window has one */
  p50Ms: number | null;
  p95Ms: number | null;
};
export type ServerCallStats = CallRates & { serverId: string | null; serverName: string | null };
export type AgentCallStats = {
  principalId: string;
  principalName: string | null;
  calls: number;
  errors: number;
};
export type CallStats = {
  window: StatsWindow;
  windowMinutes: number;
  since: string;
  totals: CallRates;
  servers: ServerCallStats[];
  busiestAgents: AgentCallStats[];
};

export async function getCallStats(
  db: Database,
  params: { tenantId: string; query: Record<string, string>; now?: Date },
): Promise<CallStats> {
  const query = parseOrThrow(callStatsQuerySchema, params.query, "The query");
  const windowMinutes = statsWindows[query.window];
  const since = new Date((params.now ?? new Date()).getTime() - windowMinutes * 60_000);
  const serverId = query.server ? await serverIdByName(db, params.tenantId, query.server) : undefined;
  // Calls this process finished a moment ago may not have their rows yet (call-journal).
  await callsOnRecord(db);

  const inWindow = and(
    eq(calls.tenantId, params.tenantId),
    gte(calls.createdAt, since),
    serverId ? eq(calls.serverId, serverId) : undefined,
  );
  const rates = rateColumns();
  const [totalRow] = await db.select(rates).from(calls).where(inWindow);
  const serverRows = await db
    .select({ ...rates, serverId: calls.serverId, serverName: mcpServers.name })
    .from(calls)
    .leftJoin(mcpServers, eq(mcpServers.id, calls.serverId))
    .where(inWindow)
    .groupBy(calls.serverId, mcpServers.name)
    .orderBy(desc(rates.calls), mcpServers.name)
    .limit(MAX_SERVERS);
  const agentRows = await db
    .select({
      principalId: calls.requesterId,
      principalName: principals.name,
      calls: rates.calls,
      errors: rates.errors,
    })
    .from(calls)
    .leftJoin(principals, eq(principals.id, calls.requesterId))
    .where(and(inWindow, eq(calls.requesterKind, "principal")))
    .groupBy(calls.requesterId, principals.name)
    .orderBy(desc(rates.calls), principals.name)
    .limit(BUSIEST_AGENTS);

  const toRates = (row: RawRates | undefined): CallRates => {
    const count = Number(row?.calls ?? 0);
    const errors = Number(row?.errors ?? 0);
    return {
      calls: count,
      errors,
      callsPerMinute: round(count / windowMinutes),
      errorRate: count === 0 ? 0 : round(errors / count),
      p50Ms: toMs(row?.p50),
      p95Ms: toMs(row?.p95),
    };
  };
  return {
    window: query.window,
    windowMinutes,
    since: since.toISOString(),
    totals: toRates(totalRow),
    servers: serverRows.map((row) => ({
      serverId: row.serverId,
      serverName: row.serverName,
      ...toRates(row),
    })),
    busiestAgents: agentRows.map((row) => ({
      principalId: row.principalId,
      principalName: row.principalName,
      calls: Number(row.calls),
      errors: Number(row.errors),
    })),
  };
}

type RawRates = { calls: number; errors: number; p50: number | null; p95: number | null };

function rateColumns() {
  const isError = outcomeCondition(["failed", "tool_error"]) as SQL;
  const percentile = (p: number) =>
    sql<number | null>`percentile_cont(${sql.raw(String(p))}) within group (order by ${calls.durationMs})`;
  return {
    calls: sql<number>`count(*)::int`.mapWith(Number),
    errors: sql<number>`(count(*) filter (where ${isError}))::int`.mapWith(Number),
    p50: percentile(0.5),
    p95: percentile(0.95),
  };
}

async function serverIdByName(db: Database, tenantId: string, name: string): Promise<string> {
  const [row] = await db
    .select({ id: mcpServers.id })
    .from(mcpServers)
    .where(and(eq(mcpServers.tenantId, tenantId), eq(mcpServers.name, name)));
  if (!row) throw new AppError("not_found", `No server named "${name}" in this workspace.`);
  return row.id;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
// percentile_cont answers double precision; a driver may hand it over as text.
const toMs = (v: number | string | null | undefined) => (v == null ? null : Math.round(Number(v) * 10) / 10);
