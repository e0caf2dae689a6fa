import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { calls, elicitations } from "@/db/schema";
import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { contentProblems } from "./check-content";
import { closeElicitation, expireDueElicitations } from "./close-elicitation";
import { type ElicitationDto, toElicitationDto } from "./elicitation-dto";

/**
 * An operator answers a server's question: accept with values that fit the server's form, decline,
 * or cancel. Answered once (close-elicitation); the answer is audited — who and how, never the
 * values, which stay with the call like its arguments.
 */

const fieldValue = z.union(
  [z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(100)],
  {
    error: "Each value is text, a number, true/false or a list of texts.",
  },
);

export const answerInputSchema = z.strictObject({
  action: z.enum(["accept", "decline", "cancel"], { error: "action is accept, decline or cancel." }),
  /** accept only: the form's values, by field */
  content: z.record(z.string().max(200), fieldValue).optional(),
});
export type ElicitationAction = z.infer<typeof answerInputSchema>["action"];

const outcomeOf = { accept: "accepted", decline: "declined", cancel: "cancelled" } as const;

export async function answerElicitation(
  db: Database,
  params: { tenantId: string; id: string; input: unknown; by: AuditActor },
): Promise<ElicitationDto> {
  const { action, content } = parseOrThrow(answerInputSchema, params.input ?? {}, "The answer");
  const found = await findOrThrow(db, params);
  if (action !== "accept" && content !== undefined)
    throw new AppError(
      "validation",
      "Only an accepted answer carries values: leave content out to decline or cancel.",
    );
  if (action === "accept") assertFits(found.requestedSchema, content ?? {});
  const row = await closeElicitation(db, {
    tenantId: params.tenantId,
    id: found.id,
    to: outcomeOf[action],
    content: action === "accept" ? (content ?? {}) : undefined,
    decidedBy: params.by?.name ?? params.by?.id ?? "Switchboard",
    beforeExpiry: true,
    also: (tx, closed) =>
      recordAudit(tx, {
        tenantId: params.tenantId,
        action: "elicitation.answered",
        ...auditedBy(params.by),
        subject: closed.id,
        detail: `${closed.status} the question of "${closed.serverName}" during call ${closed.callId}`,
      }),
  });
  if (!row) throw await explainConflict(db, params);
  return toElicitationDto(row, await toolOf(db, row.callId));
}

function assertFits(schema: Record<string, unknown>, content: Record<string, unknown>): void {
  const problems = contentProblems(schema, content);
  const fields = Object.keys(problems);
  if (fields.length === 0) return;
  const list = fields.map((field) => (field === "_" ? problems[field] : `${field} — ${problems[field]}`));
  throw new AppError("validation", `The answer does not fit the server's form: ${list.join("; ")}`, {
    fieldErrors: Object.fromEntries(fields.map((field) => [field, [problems[field] ?? ""]])),
  });
}

async function findOrThrow(db: Database, params: { tenantId: string; id: string }) {
  const [row] = await db
    .select()
    .from(elicitations)
    .where(and(eq(elicitations.tenantId, params.tenantId), eq(elicitations.id, params.id)));
  if (!row) throw new AppError("not_found", "There is no question with that id in this workspace.");
  return row;
}

async function explainConflict(db: Database, params: { tenantId: string; id: string }): Promise<AppError> {
  await expireDueElicitations(db, params);
  const row = await findOrThrow(db, params);
  const when = row.decidedAt?.toISOString() ?? "an earlier moment";
  switch (row.status) {
    case "expired":
      return new AppError(
        "conflict",
        `This question expired at ${row.expiresAt.toISOString()}; the server was told it was cancelled.`,
      );
    case "cancelled":
      return row.decidedBy
        ? new AppError("conflict", `This question was already cancelled by ${row.decidedBy} at ${when}.`)
        : new AppError(
            "conflict",
            `The call ended before anyone answered (at ${when}); the question is closed.`,
          );
    default:
      return new AppError(
        "conflict",
        `This question was already ${row.status} by ${row.decidedBy ?? "someone"} at ${when}.`,
      );
  }
}

export async function toolOf(db: Database, callId: string): Promise<string | null> {
  const [call] = await db.select({ tool: calls.gatewayName }).from(calls).where(eq(calls.id, callId));
  return call?.tool ?? null;
}
