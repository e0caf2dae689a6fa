import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { calls, serverCrashCalls } from "@/db/schema";
import { type Party, requesterOf, selectCallViews, toCallView } from "@/lib/calls/call-view";
import type { Database } from "@/lib/db/client";
import { isForeignKeyViolation } from "@/lib/db/errors";
import type { ExitInfo, RunningCall } from "@/lib/upstream/pool-events";

/**
 * Which calls were running when a server's process exited on its own: the calls that may have
 * crashed it. Any caller can put a server into crash-loop; this names them (server diagnostics,
 * the call's page) so an admin can quarantine the tool (lib/catalog/governed-tools). Suggesting
 * a quarantine is all that is automatic: the admin decides.
 */

/** Crashes of one tool within this window, from this many on, suggest quarantining it. */
export const QUARANTINE_SUGGESTION_CRASHES = 2;
const SUGGESTION_WINDOW_MS = 24 * 60 * 60 * 1000;

export type CrashCallDto = {
  callId: string;
  /** the server's own name of the tool */
  tool: string;
  /** null when the call's record is gone (or not written yet) */
  requester: Party | null;
  crashedAt: string;
  exitCode: number | null;
  exitSignal: string | null;
};

export async function recordCrashCalls(
  db: Database,
  params: { tenantId: string; serverId: string; exit: ExitInfo; calls: RunningCall[] },
): Promise<void> {
  if (params.calls.length === 0) return;
  await db
    .insert(serverCrashCalls)
    .values(
      params.calls.map((call) => ({
        tenantId: params.tenantId,
        serverId: params.serverId,
        callId: call.callId,
        toolName: call.tool,
        exitCode: params.exit.code,
        exitSignal: params.exit.signal,
        crashedAt: new Date(params.exit.at),
      })),
    )
    .catch((error: unknown) => {
      // The server was deleted (by another process) meanwhile: nothing to attribute.
      if (!isForeignKeyViolation(error)) throw error;
    });
}

/** The latest crash attributions of a server, with who made each call. */
export async function listCrashCalls(
  db: Database,
  params: { tenantId: string; serverId: string; limit?: number },
): Promise<CrashCallDto[]> {
  const rows = await db
    .select()
    .from(serverCrashCalls)
    .where(
      and(eq(serverCrashCalls.tenantId, params.tenantId), eq(serverCrashCalls.serverId, params.serverId)),
    )
    .orderBy(desc(serverCrashCalls.crashedAt))
    .limit(params.limit ?? 20);
  const ids = [...new Set(rows.map((row) => row.callId))];
  const views =
    ids.length === 0
      ? []
      : (await selectCallViews(db, and(eq(calls.tenantId, params.tenantId), inArray(calls.id, ids)))).map(
          toCallView,
        );
  const requesters = new Map(views.map((view) => [view.call.id, requesterOf(view)]));
  return rows.map((row) => ({
    callId: row.callId,
    tool: row.toolName,
    requester: requesters.get(row.callId) ?? null,
    crashedAt: row.crashedAt.toISOString(),
    exitCode: row.exitCode,
    exitSignal: row.exitSignal,
  }));
}

/** Recent crashes per tool of the workspace (or of `serverIds` only), keyed `<serverId> <tool name>`. */
export async function countRecentCrashes(
  db: Database,
  params: { tenantId: string; serverIds?: readonly string[]; now?: Date },
): Promise<Map<string, number>> {
  if (params.serverIds?.length === 0) return new Map();
  const since = new Date((params.now ?? new Date()).getTime() - SUGGESTION_WINDOW_MS);
  const rows = await db
    .select({
      serverId: serverCrashCalls.serverId,
      tool: serverCrashCalls.toolName,
      crashes: sql<number>`count(*)::int`,
    })
    .from(serverCrashCalls)
    .where(
      and(
        eq(serverCrashCalls.tenantId, params.tenantId),
        gte(serverCrashCalls.crashedAt, since),
        params.serverIds ? inArray(serverCrashCalls.serverId, [...params.serverIds]) : undefined,
      ),
    )
    .groupBy(serverCrashCalls.serverId, serverCrashCalls.toolName);
  return new Map(rows.map((row) => [crashKey(row.serverId, row.tool), Number(row.crashes)]));
}

export const crashKey = (serverId: string, tool: string) => `${serverId} ${tool}`;
