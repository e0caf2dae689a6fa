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

/** The approval queue (pending, oldest first) and the decided history (newest first). */

export type ApprovalDto = ApprovalInfo & { call: Omit<CallDto, "approval" | "result"> };

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
      pending ? eq(approvals.status, "pending") : ne(approvals.status, "pending"),
      after
        ? or(before(sortColumn, after.at), and(eq(sortColumn, after.at), before(approvals.id, after.id)))
        : undefined,
    ),
  )
    .orderBy(order(sortColumn), order(approvals.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit).map((row) => {
    const { approval, result, ...call } = toCallDto(toCallView(row));
    return { ...(approval as ApprovalInfo), call };
  });
  const last = page.at(-1);
  const lastAt = last && (pending ? last.createdAt : last.decidedAt);
  const nextCursor =
    rows.length > query.limit && last && lastAt ? encodeCursor({ at: new Date(lastAt), id: last.id }) : null;
  return { approvals: page, nextCursor };
}
