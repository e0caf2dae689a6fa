import { and, asc, desc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { calls, elicitations } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/validation";
import { expireDueElicitations } from "./close-elicitation";
import { type ElicitationDto, toElicitationDto } from "./elicitation-dto";

/** Servers' questions for operators: the pending ones (oldest first), or the answered (newest first). */

export const listElicitationsQuerySchema = z.strictObject({
  status: z.enum(["pending", "answered"], { error: "status is pending or answered." }).default("pending"),
  callId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export async function listElicitations(
  db: Database,
  params: { tenantId: string; query: Record<string, string> },
): Promise<{ elicitations: ElicitationDto[] }> {
  const query = parseOrThrow(listElicitationsQuerySchema, params.query, "The query");
  await expireDueElicitations(db, params);
  const pending = query.status === "pending";
  const rows = await db
    .select({ elicitation: elicitations, tool: calls.gatewayName })
    .from(elicitations)
    .leftJoin(calls, eq(calls.id, elicitations.callId))
    .where(
      and(
        eq(elicitations.tenantId, params.tenantId),
        pending ? eq(elicitations.status, "pending") : ne(elicitations.status, "pending"),
        query.callId ? eq(elicitations.callId, query.callId) : undefined,
      ),
    )
    .orderBy(pending ? asc(elicitations.createdAt) : desc(elicitations.decidedAt))
    .limit(query.limit);
  return { elicitations: rows.map((row) => toElicitationDto(row.elicitation, row.tool)) };
}
