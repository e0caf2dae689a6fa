"use server";

import { z } from "zod";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { decideApprovalItem } from "@/lib/approvals/decide-group";
import type { CallDto } from "@/lib/calls/call-view";
import { parseOrThrow } from "@/lib/validation";

const idParam = z.string().trim().min(1).max(100);

/** What the page needs back: the outcome, not the call's arguments again. */
export type DecisionOutcome = Pick<CallDto, "id" | "tool" | "status" | "approval">;

/**
 * A queue item stands for its identical pending requests too (lib/approvals/duplicates.ts): the page
 * decides them all, each on its own (lib/approvals/decide-group.ts), and says so before one clicks.
 */
async function decide(
  decision: "approve" | "deny",
  id: string,
  reason: string | undefined,
  args?: unknown,
): Promise<ActionResult<DecisionOutcome>> {
  return runAction("decide", async ({ db, tenant, actor }) => {
    const { call } = await decideApprovalItem(db, {
      tenantId: tenant.id,
      id: parseOrThrow(idParam, id, "The approval id"),
      decision,
      // The reason is validated by the service, with the same schema as the REST route.
      // Edited arguments are one call's (the service refuses them for a group); validated there too.
      input: {
        ...(reason?.trim() ? { reason } : {}),
        ...(args === undefined ? { withDuplicates: true } : { arguments: args }),
      },
      decider: { kind: "operator", id: actor.userId },
    });
    return { id: call.id, tool: call.tool, status: call.status, approval: call.approval };
  });
}

// No revalidatePath: the pages read through React Query, which the event stream keeps fresh.

/** `args`: approve the call with these arguments instead of the requested ones (one call only). */
export async function approveCallAction(id: string, reason?: string, args?: unknown) {
  return decide("approve", id, reason, args);
}

export async function denyCallAction(id: string, reason?: string) {
  return decide("deny", id, reason);
}
