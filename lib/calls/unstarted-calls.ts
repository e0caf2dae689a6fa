import { and, eq, inArray, lte } from "drizzle-orm";
import { approvals, calls } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { recordCallEvent } from "./call-events";
import { loadCallView } from "./call-view";

/**
 * Approved calls nobody started. A decision commits the approval, the call's `approved` status, its
 * start deadline (calls.start_by), its runner (the deciding process) and call.approved in one
 * transaction; the run's claim (approved → running, run-approved-call) follows it. A process that
 * dies in between leaves the call to whoever looks next — the caller's waiting process, woken by
 * call.approved; the stopped-runner sweep; a PGlite's next start (lib/calls/recover-approved.ts).
 * Past its deadline nobody may claim it: it is expired here instead, saying when it was approved
 * and that it did not run — an approval is a yes to running it then, not whenever it is noticed.
 */

/** When a call approved at `from` must have started; `seconds` from the decision, else the setting. */
export function startDeadline(from: Date, seconds?: number): Date {
  return new Date(from.getTime() + (seconds ?? readEnv().approvedStartSeconds) * 1000);
}

/**
 * Expires approved calls past their start deadline (all of them, or of a workspace, or these); each
 * is one conditional update from `approved`, so a call is never both expired and run, and its
 * call.expired is recorded once. Returns the ids of the calls it expired.
 */
export async function expireUnstartedCalls(
  db: Database,
  params: { tenantId?: string; callIds?: string[] } = {},
): Promise<string[]> {
  const now = new Date();
  const overdue = await db
    .select({
      id: calls.id,
      tenantId: calls.tenantId,
      createdAt: calls.createdAt,
      startBy: calls.startBy,
      approvedAt: approvals.decidedAt,
    })
    .from(calls)
    .leftJoin(approvals, eq(approvals.callId, calls.id))
    .where(
      and(
        eq(calls.status, "approved"),
        lte(calls.startBy, now),
        params.tenantId ? eq(calls.tenantId, params.tenantId) : undefined,
        params.callIds ? inArray(calls.id, params.callIds) : undefined,
      ),
    );
  const expired: string[] = [];
  for (const call of overdue) {
    const [row] = await db
      .update(calls)
      .set({
        status: "expired",
        errorCode: "not_started",
        errorMessage: notStartedMessage(call.approvedAt ?? call.createdAt, call.startBy ?? now),
        finishedAt: now,
        sealedArguments: null,
      })
      .where(and(eq(calls.id, call.id), eq(calls.status, "approved"), lte(calls.startBy, now)))
      .returning({ id: calls.id });
    if (!row) continue; // claimed (or ended) meanwhile: that stands
    expired.push(row.id);
    const view = await loadCallView(db, { tenantId: call.tenantId, callId: call.id });
    if (view) await recordCallEvent(db, view, { type: "call.expired" });
  }
  return expired;
}

function notStartedMessage(approvedAt: Date, startBy: Date): string {
  const seconds = Math.round((startBy.getTime() - approvedAt.getTime()) / 1000);
  return `Approved at ${approvedAt.toISOString()} but not started within ${seconds} s; not run. Call it again if it is still wanted.`;
}
