import { and, eq, gt, lte } from "drizzle-orm";
import { elicitations } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { recordEvent } from "@/lib/events/record-event";
import { processSingleton } from "@/lib/process-singleton";

/**
 * The one way an elicitation stops being pending: a conditional update from "pending" and its
 * elicitation.answered event, in one transaction. Whoever updates first decides; everyone else
 * (a second click, another operator, the expiry timer, the call ending) changes nothing.
 */

type Outcome = "accepted" | "declined" | "cancelled" | "expired";
type Row = typeof elicitations.$inferSelect;

export async function closeElicitation(
  db: Database,
  params: {
    tenantId: string;
    id: string;
    to: Outcome;
    content?: Record<string, unknown>;
    decidedBy?: string;
    /** an operator's answer counts only before the expiry; Switchboard's own closing always does */
    beforeExpiry?: boolean;
    /** runs in the same transaction when the update won (the audit entry of an answer) */
    also?: (tx: Queryable, row: Row) => Promise<void>;
  },
): Promise<Row | undefined> {
  const now = new Date();
  const closed = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(elicitations)
      .set({
        status: params.to,
        content: params.content ?? null,
        decidedBy: params.decidedBy ?? null,
        decidedAt: now,
      })
      .where(
        and(
          eq(elicitations.tenantId, params.tenantId),
          eq(elicitations.id, params.id),
          eq(elicitations.status, "pending"),
          params.beforeExpiry ? gt(elicitations.expiresAt, now) : undefined,
        ),
      )
      .returning();
    if (!row) return undefined;
    await recordAnswered(tx, row);
    await params.also?.(tx, row);
    return row;
  });
  if (closed) wakeWaiters(closed.id);
  return closed;
}

/**
 * The waiters of this process, woken once an answer is committed. Another process's answer arrives
 * as elicitation.answered through the event relay (published at its commit); without a relay the
 * event is published before the commit, and a waiter reading then would still see "pending".
 */
const waiters = processSingleton("ElicitationWaiters", () => new Map<string, Set<() => void>>());

export function onCommittedAnswer(id: string, wake: () => void): () => void {
  const set = waiters.get(id) ?? new Set<() => void>();
  set.add(wake);
  waiters.set(id, set);
  return () => {
    set.delete(wake);
    if (set.size === 0) waiters.delete(id);
  };
}

function wakeWaiters(id: string): void {
  for (const wake of waiters.get(id) ?? []) wake();
}

/** Expires what fell due with nobody answering (swept whenever the queue is read). */
export async function expireDueElicitations(db: Database, params: { tenantId: string }): Promise<void> {
  const now = new Date();
  await db.transaction(async (tx) => {
    const due = await tx
      .update(elicitations)
      .set({ status: "expired", decidedAt: now })
      .where(
        and(
          eq(elicitations.tenantId, params.tenantId),
          eq(elicitations.status, "pending"),
          lte(elicitations.expiresAt, now),
        ),
      )
      .returning();
    for (const row of due) await recordAnswered(tx, row);
  });
}

function recordAnswered(db: Queryable, row: Row) {
  return recordEvent(db, {
    tenantId: row.tenantId,
    event: {
      type: "elicitation.answered",
      elicitationId: row.id,
      callId: row.callId,
      serverId: row.serverId ?? "",
      serverName: row.serverName,
      outcome: row.status as Outcome,
      decidedBy: row.decidedBy,
    },
  });
}
