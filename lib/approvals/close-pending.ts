import { and, eq, inArray, lte } from "drizzle-orm";
import { approvals, calls } from "@/db/schema";
import { recordCallEvent } from "@/lib/calls/call-events";
import { loadCallView } from "@/lib/calls/call-view";
import type { Database } from "@/lib/db/client";

/**
 * Ends approvals nobody decided: expired ones (by the waiter's timer, and swept whenever calls or
 * approvals are read) and withdrawn ones (the caller cancelled). Like a decision, each is one
 * conditional update from "pending", so a call that expires is never also approved, and its
 * call.expired is recorded once however many processes sweep at the same moment.
 */

type Closing = { tenantId: string; to: "expired" | "cancelled"; callIds?: string[] };

const callOutcome = {
  expired: { errorCode: "approval_expired", errorMessage: "No one decided before the approval expired." },
  cancelled: { errorCode: "cancelled", errorMessage: "The caller withdrew the call before a decision." },
} as const;

async function closePending(db: Database, params: Closing): Promise<string[]> {
  const now = new Date();
  const closed = await db.transaction(async (tx) => {
    const rows = await tx
      .update(approvals)
      .set({ status: params.to, decidedAt: now })
      .where(
        and(
          eq(approvals.tenantId, params.tenantId),
          eq(approvals.status, "pending"),
          params.callIds ? inArray(approvals.callId, params.callIds) : undefined,
          params.to === "expired" ? lte(approvals.expiresAt, now) : undefined,
        ),
      )
      .returning({ callId: approvals.callId });
    if (rows.length === 0) return [];
    const ended = await tx
      .update(calls)
      .set({ status: params.to, finishedAt: now, sealedArguments: null, ...callOutcome[params.to] })
      .where(
        and(
          inArray(
            calls.id,
            rows.map((r) => r.callId),
          ),
          eq(calls.status, "pending_approval"),
        ),
      )
      .returning({ id: calls.id });
    return ended.map((r) => r.id);
  });
  for (const callId of closed) {
    const view = await loadCallView(db, { tenantId: params.tenantId, callId });
    if (view)
      await recordCallEvent(db, view, { type: params.to === "expired" ? "call.expired" : "call.cancelled" });
  }
  return closed;
}

/** Expires the approvals of the workspace that are past due; returns the calls that expired. */
export function expireDueApprovals(db: Database, params: { tenantId: string; callIds?: string[] }) {
  return closePending(db, { ...params, to: "expired" });
}

/** The caller gave up on a call still waiting for a decision (an MCP client cancelled it). */
export async function withdrawPendingCall(db: Database, params: { tenantId: string; callId: string }) {
  return (
    (await closePending(db, { tenantId: params.tenantId, to: "cancelled", callIds: [params.callId] }))
      .length > 0
  );
}
