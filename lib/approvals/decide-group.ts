import type { AuditActor } from "@/lib/auth/audit";
import type { CallDto } from "@/lib/calls/call-view";
import type { Database } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { type Decider, decideApproval, decideInputSchema } from "./decide-approval";
import { findPendingDuplicates } from "./duplicates";

/**
 * Deciding an item of the queue. By default one call; with `withDuplicates: true`, also every
 * pending duplicate of it (duplicates.ts) — each through decideApproval, so each is decided exactly
 * once, by its own conditional update, with its own call.approved / call.denied naming the decider.
 * Approving them runs each: they are separate requests. (A client whose retries must run once sends
 * an idempotency key, which makes them one call to begin with.) A duplicate someone else decided
 * meanwhile is left as it is.
 */
export async function decideApprovalItem(
  db: Database,
  params: {
    tenantId: string;
    id: string;
    decision: "approve" | "deny";
    input: unknown;
    decider: Decider;
    by?: AuditActor;
  },
): Promise<{ call: CallDto; duplicates: CallDto[] }> {
  const input = parseOrThrow(decideInputSchema, params.input ?? {}, "The decision");
  const { withDuplicates, arguments: edited } = input;
  // An edit is one approver's judgement of one request; duplicates are separate requests.
  if (edited && withDuplicates)
    throw new AppError(
      "validation",
      "Edited arguments apply to one call only: approve this call with its edits without withDuplicates, then decide the duplicates on their own.",
      { fieldErrors: { arguments: ["Edits apply to a single call, not to its duplicates."] } },
    );
  const call = await decideApproval(db, params);
  if (!withDuplicates) return { call, duplicates: [] };
  const found = await findPendingDuplicates(db, { tenantId: params.tenantId, callIds: [call.id] });
  const duplicates: CallDto[] = [];
  for (const id of found.get(call.id) ?? []) {
    try {
      // One rule is enough: it was made with the item itself.
      duplicates.push(await decideApproval(db, { ...params, id, input: { ...input, allowRule: undefined } }));
    } catch (error) {
      if (!isAppError(error) || error.code !== "conflict") throw error;
    }
  }
  return { call, duplicates };
}
