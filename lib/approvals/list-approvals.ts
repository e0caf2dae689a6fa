import { and, asc, desc, eq, gt, lt, ne, or } from "drizzle-orm";
import { z } from "zod";
import { approvals, calls } from "@/db/schema";
import {
  type ApprovalInfo,
  type CallDto,
  selectCallViews,
  toCallDto,
  toCallView,
} from "@/lib/calls/call-view";
import { decodeCursor, encodeCursor } from "@/lib/calls/cursor";
import type { Database } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/validation";
import { expireDueApprovals } from "./close-pending";
import { findPendingDuplicates, isOldestOfDuplicates } from "./duplicates";

/**
 * The approval queue (pending, oldest first) and the decided history (newest first). In the queue,
 * identical pending requests (duplicates.ts) are one item: the oldest, with the others' ids and the
 * count — so one agent's retries do not read as several different things to approve.
 */

export type ApprovalDto = ApprovalInfo & {
  call: Omit<CallDto, "approval" | "result">;
  /** how many identical pending requests this item stands for (1 when alone, and once decided) */
  count: number;
  /** the other pending calls of the item, oldest first */
  duplicateCallIds: string[];
};

export const listApprovalsQuerySchema = z.strictObject({
  status: z.enum(["pending", "decided"], { error: "status is pending or decided." }).default("pending"),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export async function listApprovals(
  db: Database,
  params: { tenantId: string; query: Record<string, string> },
): Promise<{ approvals: ApprovalDto[]; nextCursor: string | null }> {
  const query = parseOrThrow(listApprovalsQuerySchema, params.query, "The query");
  await expireDueApprovals(db, params);
  const pending = query.status === "pending";
  // The queue in arrival order; the history by when each was decided.
  const sortColumn = pending ? approvals.createdAt : approvals.decidedAt;
  const [before, order] = pending ? [gt, asc] : [lt, desc];
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await selectCallViews(
    db,
    and(
      eq(calls.tenantId, params.tenantId),
      pending
        ? and(eq(approvals.status, "pending"), isOldestOfDuplicates(db))
        : ne(approvals.status, "pending"),
      after
        ? or(before(sortColumn, after.at), and(eq(sortColumn, after.at), before(approvals.id, after.id)))
        : undefined,
    ),
  )
    .orderBy(order(sortColumn), order(approvals.id))
    .limit(query.limit + 1);
  const views = rows.slice(0, query.limit).map(toCallView);
  const duplicates = pending
    ? await findPendingDuplicates(db, { tenantId: params.tenantId, callIds: views.map((v) => v.call.id) })
    : new Map<string, string[]>();
  const page = views.map((view) => {
    const { approval, result, ...call } = toCallDto(view);
    const duplicateCallIds = duplicates.get(call.id) ?? [];
    return { ...(approval as ApprovalInfo), call, count: 1 + duplicateCallIds.length, duplicateCallIds };
  });
  const last = page.at(-1);
  const lastAt = last && (pending ? last.createdAt : last.decidedAt);
  const nextCursor =
    rows.length > query.limit && last && lastAt ? encodeCursor({ at: new Date(lastAt), id: last.id }) : null;
  return { approvals: page, nextCursor };
}
