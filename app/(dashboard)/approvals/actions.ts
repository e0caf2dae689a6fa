"use server";

import { z } from "zod";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { revokeAllowRule } from "@/lib/approvals/allow-rules";
import { decideApprovalItem } from "@/lib/approvals/decide-group";
import { auditActorOf } from "@/lib/auth/actor";
import { roleCan } from "@/lib/auth/permissions";
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
  approving: { arguments?: unknown; allowRule?: unknown; single?: boolean } = {},
): Promise<ActionResult<DecisionOutcome>> {
  return runAction("decide", async ({ db, tenant, actor }) => {
    const { call } = await decideApprovalItem(db, {
      tenantId: tenant.id,
      id: parseOrThrow(idParam, id, "The approval id"),
      decision,
      // The reason is validated by the service, with the same schema as the REST route.
      // Edited arguments are one call's (the service refuses them for a group); validated there too.
      // The allow rule ({durationMinutes | until, conditions}) is validated by the service too.
      input: {
        ...(reason?.trim() ? { reason } : {}),
        ...(approving.allowRule ? { allowRule: approving.allowRule } : {}),
        // `single`: the call page and the Playground decide the call shown, not requests like it.
        ...(approving.arguments === undefined
          ? { withDuplicates: approving.single !== true }
          : { arguments: approving.arguments }),
      },
      decider: { kind: "operator", id: actor.userId },
      by: auditActorOf(actor),
    });
    return { id: call.id, tool: call.tool, status: call.status, approval: call.approval };
  });
}

// No revalidatePath: the pages read through React Query, which the event stream keeps fresh.

/**
 * `arguments`: approve the call with these instead of the requested ones (one call only);
 * `allowRule` ({durationMinutes | until, conditions}) also lets later matching calls through.
 */
export async function approveCallAction(
  id: string,
  reason?: string,
  approving: { arguments?: unknown; allowRule?: unknown; single?: boolean } = {},
) {
  return decide("approve", id, reason, approving);
}

export async function revokeAllowRuleAction(id: string): Promise<ActionResult<{ id: string }>> {
  return runAction("decide", async ({ db, tenant, actor }) => {
    const rule = await revokeAllowRule(db, {
      tenantId: tenant.id,
      id: parseOrThrow(idParam, id, "The rule id"),
      by: auditActorOf(actor),
      isAdmin: roleCan(actor.role, "manage"),
    });
    return { id: rule.id };
  });
}

/** `single`: deny this call only, not its pending duplicates (as from the call page). */
export async function denyCallAction(id: string, reason?: string, options: { single?: boolean } = {}) {
  return decide("deny", id, reason, { single: options.single });
}
