import { and, eq, inArray } from "drizzle-orm";
import { calls } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/observability/log";
import { runApprovedCall } from "./run-approved-call";
import { expireUnstartedCalls } from "./unstarted-calls";

/**
 * Approved calls whose runner stopped before starting them (see unstarted-calls): overdue ones are
 * expired, the others started here — each through the same claim as any other run, so however many
 * processes recover the same call at once, it runs once. Runs are not awaited (a sweep must not
 * wait minutes for a tool); returns how many calls it expired or offered to run.
 *
 * Without `runners`, every approved call: only at the start of an embedded PGlite, whose data folder
 * is locked to one process. On a shared PostgreSQL, only the calls of runners known to have stopped.
 */
export async function recoverApprovedCalls(db: Database, runners?: string[]): Promise<number> {
  const orphans = await db
    .select({ id: calls.id, tenantId: calls.tenantId })
    .from(calls)
    .where(and(eq(calls.status, "approved"), runners ? inArray(calls.runner, runners) : undefined));
  if (orphans.length === 0) return 0;
  const expired = new Set(await expireUnstartedCalls(db, { callIds: orphans.map((call) => call.id) }));
  for (const call of orphans) {
    if (expired.has(call.id)) continue;
    runApprovedCall(db, { tenantId: call.tenantId, callId: call.id }).catch((error: unknown) =>
      log.error({ callId: call.id }, `call ${call.id}: could not start (${(error as Error).name})`),
    );
  }
  return orphans.length;
}
