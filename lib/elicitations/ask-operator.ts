import "server-only";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { calls, elicitations } from "@/db/schema";
import { callOnRecord } from "@/lib/calls/call-journal";
import type { Database } from "@/lib/db/client";
import { recordEvent, subscribeEvents } from "@/lib/events/record-event";
import { getApprovalPolicy } from "@/lib/policy/approval-rules";
import type { OperatorQuestion } from "@/lib/upstream/server-connection";
import { closeElicitation, onCommittedAnswer } from "./close-elicitation";

/**
 * A server's form elicitation whose caller cannot answer it, put to the workspace's operators
 * (the pool calls this: caller-relay decides when). The question is stored with the call it came
 * during and expires like an approval (the workspace's approval expiry). The process running the
 * call waits here: an answer recorded by any process wakes it through elicitation.answered (the
 * event relay), its own timer expires the question, and the call ending (its caller cancelled it,
 * or the server withdrew the request) withdraws it. The server gets `accept` with the values,
 * `decline`, or `cancel` for anything that was not an answer.
 */

type ElicitResult = { action: "accept"; content: Record<string, unknown> } | { action: "decline" | "cancel" };

// The SDK validated the request (ElicitRequestSchema); this is only what is stored of it.
const questionSchema = z.object({
  message: z.string(),
  requestedSchema: z.record(z.string(), z.unknown()),
});

export async function askOperator(
  db: Database,
  question: OperatorQuestion,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const parsed = questionSchema.safeParse(question.params);
  if (!parsed.success)
    throw new McpError(ErrorCode.InvalidParams, "Switchboard puts only form elicitations to an operator.");
  // A call that runs at once may be on record only in the intent log yet (call-journal): write it.
  await callOnRecord(db, question.callId);
  const [call] = await db
    .select({ tenantId: calls.tenantId })
    .from(calls)
    .where(eq(calls.id, question.callId));
  if (!call)
    throw new McpError(ErrorCode.InvalidRequest, "The call this question belongs to is not recorded.");
  const { expirySeconds } = await getApprovalPolicy(db, { tenantId: call.tenantId });
  const expiresAt = new Date(Date.now() + expirySeconds * 1000);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(elicitations)
      .values({
        tenantId: call.tenantId,
        callId: question.callId,
        serverId: question.serverId,
        serverName: question.serverName,
        message: parsed.data.message,
        requestedSchema: parsed.data.requestedSchema,
        expiresAt,
      })
      .returning();
    if (!inserted) throw new Error("The question was not stored.");
    await recordEvent(tx, {
      tenantId: call.tenantId,
      event: {
        type: "elicitation.requested",
        elicitationId: inserted.id,
        callId: question.callId,
        serverId: question.serverId,
        serverName: question.serverName,
        expiresAt: expiresAt.toISOString(),
      },
    });
    return inserted;
  });
  return awaitAnswer(db, { tenantId: call.tenantId, id: row.id, expiresAt }, signal);
}

function awaitAnswer(
  db: Database,
  params: { tenantId: string; id: string; expiresAt: Date },
  signal: AbortSignal,
): Promise<ElicitResult> {
  const { tenantId, id } = params;
  return new Promise<ElicitResult>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { result: ElicitResult } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      stopWaking();
      clearTimeout(expiry);
      signal.removeEventListener("abort", onAbort);
      if ("result" in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    const read = () =>
      db
        .select()
        .from(elicitations)
        .where(and(eq(elicitations.tenantId, tenantId), eq(elicitations.id, id)))
        .then(([row]) => {
          if (!row) return finish({ result: { action: "cancel" } });
          if (row.status === "pending") return;
          finish({ result: resultOf(row) });
        })
        .catch((error: unknown) => finish({ error }));
    // Switchboard closes it itself (expired, or withdrawn), then reads what won: an operator's
    // answer recorded a moment earlier still reaches the server.
    const close = (to: "expired" | "cancelled") =>
      closeElicitation(db, { tenantId, id, to }).then(read, (error: unknown) => finish({ error }));
    const onAbort = () => void close("cancelled");

    // Subscribe before the first read, so an answer recorded in between is not missed.
    const unsubscribe = subscribeEvents((event) => {
      if (!settled && event.type === "elicitation.answered" && event.elicitationId === id) void read();
    });
    const stopWaking = onCommittedAnswer(id, () => void read());
    const expiry = setTimeout(
      () => void close("expired"),
      Math.max(params.expiresAt.getTime() - Date.now(), 0),
    );
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    void read();
  });
}

function resultOf(row: typeof elicitations.$inferSelect): ElicitResult {
  switch (row.status) {
    case "accepted":
      return { action: "accept", content: row.content ?? {} };
    case "declined":
      return { action: "decline" };
    default:
      return { action: "cancel" };
  }
}
