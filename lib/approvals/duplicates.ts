import { and, eq, inArray, ne, notExists, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { approvals, calls } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";

/**
 * Pending duplicates: calls still waiting for a decision that ask for the same thing — same
 * requester, same kind, same tool, same (scrubbed) arguments, compared as jsonb so key order does
 * not matter. Usually an agent that retried without an idempotency key after losing its first
 * request. The queue shows each group as one item, its oldest call, with a count; deciding the item
 * may decide them all (decide-group.ts), each still decided exactly once and audited on its own.
 */

const dup = alias(calls, "dup");
const dupApproval = alias(approvals, "dup_approval");

/** `dup` asks for what the query's own call (`calls`) asks for: the one definition of a duplicate. */
const sameRequest = () =>
  and(
    eq(dup.tenantId, calls.tenantId),
    eq(dup.requesterKind, calls.requesterKind),
    eq(dup.requesterId, calls.requesterId),
    eq(dup.kind, calls.kind),
    eq(dup.gatewayName, calls.gatewayName),
    eq(dup.arguments, calls.arguments),
  );

/** True for a pending call (joined with its approval) with no older pending duplicate: the one that stands for its group. */
export function isOldestOfDuplicates(db: Queryable): SQL {
  return notExists(
    db
      .select({ one: sql`1` })
      .from(dup)
      .innerJoin(dupApproval, and(eq(dupApproval.callId, dup.id), eq(dupApproval.status, "pending")))
      .where(
        and(
          sameRequest(),
          sql`(${dupApproval.createdAt}, ${dupApproval.id}) < (${approvals.createdAt}, ${approvals.id})`,
        ),
      ),
  );
}

/** The other pending calls like each of `callIds` (oldest first), by call id. */
export async function findPendingDuplicates(
  db: Queryable,
  params: { tenantId: string; callIds: string[] },
): Promise<Map<string, string[]>> {
  const byCall = new Map<string, string[]>(params.callIds.map((id) => [id, []]));
  if (params.callIds.length === 0) return byCall;
  const rows = await db
    .select({ callId: calls.id, duplicateId: dup.id })
    .from(calls)
    .innerJoin(dup, and(sameRequest(), ne(dup.id, calls.id)))
    .innerJoin(approvals, and(eq(approvals.callId, dup.id), eq(approvals.status, "pending")))
    .where(and(eq(calls.tenantId, params.tenantId), inArray(calls.id, params.callIds)))
    .orderBy(approvals.createdAt, approvals.id);
  for (const row of rows) byCall.get(row.callId)?.push(row.duplicateId);
  return byCall;
}
