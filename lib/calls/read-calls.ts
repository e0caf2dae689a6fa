import { and, asc, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { callKinds, calls, events, mcpServers } from "@/db/schema";
import { expireDueApprovals } from "@/lib/approvals/close-pending";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { awaitCall } from "./await-call";
import { callOnRecord, callsOnRecord } from "./call-journal";
import { callOutcomes, outcomeCondition } from "./call-outcome";
import {
  type CallDto,
  type CallSummary,
  selectCallViews,
  toCallDto,
  toCallSummary,
  toCallView,
} from "./call-view";
import { decodeCursor, encodeCursor } from "./cursor";
import type { CallReader } from "./requester";

/** Reading calls: history with filters, one call with its timeline, a bounded wait. */

type Scope = { tenantId: string; reader: CallReader };

export const listCallsQuerySchema = z.strictObject({
  // An outcome, not only a stored status: `tool_error` and `succeeded` split the succeeded calls.
  status: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(callOutcomes, { error: `status is one of ${callOutcomes.join(", ")}.` })))
    .optional(),
  kind: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(callKinds, { error: `kind is one of ${callKinds.join(", ")}.` })))
    .optional(),
  tool: z.string().trim().min(1).max(200).optional(),
  server: z.string().trim().min(1).max(100).optional(),
  requester: z.string().trim().min(1).max(200).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export type TimelineEntry = { id: number; type: string; at: string; detail: Record<string, unknown> };

export async function listCalls(
  db: Database,
  params: Scope & { query: Record<string, string> },
): Promise<{ calls: CallSummary[]; nextCursor: string | null }> {
  const query = parseOrThrow(listCallsQuerySchema, params.query, "The query");
  // Calls this process ran a moment ago may not have their rows yet (call-journal).
  await callsOnRecord(db);
  await expireDueApprovals(db, params);
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await selectCallViews(
    db,
    and(
      visibleTo(params),
      query.status?.length ? outcomeCondition(query.status) : undefined,
      query.kind ? inArray(calls.kind, query.kind) : undefined,
      query.tool ? eq(calls.gatewayName, query.tool) : undefined,
      query.server ? eq(mcpServers.name, query.server) : undefined,
      query.requester ? eq(calls.requesterId, query.requester) : undefined,
      after
        ? or(lt(calls.createdAt, after.at), and(eq(calls.createdAt, after.at), lt(calls.id, after.id)))
        : undefined,
    ),
  )
    .orderBy(desc(calls.createdAt), desc(calls.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit).map((row) => toCallSummary(toCallView(row)));
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last ? encodeCursor({ at: new Date(last.createdAt), id: last.id }) : null;
  return { calls: page, nextCursor };
}

/** One call, with every event recorded about it in order (its timeline). */
export async function getCall(
  db: Database,
  params: Scope & { callId: string },
): Promise<{ call: CallDto; timeline: TimelineEntry[] }> {
  await expireDueApprovals(db, { tenantId: params.tenantId, callIds: [params.callId] });
  const call = await getCallDtoOrThrow(db, params);
  const rows = await db
    .select()
    .from(events)
    .where(and(eq(events.tenantId, params.tenantId), eq(events.callId, params.callId)))
    .orderBy(asc(events.id));
  const timeline = rows.map((row) => {
    const { callId, kind, serverId, serverName, tool, effect, requester, ...detail } = row.data;
    return { id: row.id, type: row.type, at: row.createdAt.toISOString(), detail };
  });
  return { call, timeline };
}

/** Returns when the call is finished or after `timeoutMs`, whichever is first: its state then. */
export async function waitForCall(
  db: Database,
  params: Scope & { callId: string; timeoutMs: number; signal?: AbortSignal },
): Promise<CallDto> {
  await getCallDtoOrThrow(db, params);
  return toCallDto(await awaitCall(db, params));
}

async function getCallDtoOrThrow(db: Database, params: Scope & { callId: string }): Promise<CallDto> {
  // A call this process answered a moment ago may not have its row yet (call-journal).
  await callOnRecord(db, params.callId);
  const [row] = await selectCallViews(db, and(visibleTo(params), eq(calls.id, params.callId)));
  // A principal asking for another's call learns nothing, not even that it exists.
  if (!row) throw new AppError("not_found", "There is no call with that id in this workspace.");
  return toCallDto(toCallView(row));
}

function visibleTo(params: Scope): SQL | undefined {
  const own =
    params.reader.kind === "principal"
      ? and(eq(calls.requesterKind, "principal"), eq(calls.requesterId, params.reader.principalId))
      : undefined;
  return and(eq(calls.tenantId, params.tenantId), own);
}
