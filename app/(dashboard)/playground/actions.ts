"use server";

import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { postCallBodySchema } from "@/lib/calls/call-body";
import type { CallDto } from "@/lib/calls/call-view";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import { requesterFromActor } from "@/lib/calls/requester";
import { parseOrThrow } from "@/lib/validation";

/**
 * How long the action itself waits for an approval. Short on purpose: the page should say
 * "waiting for approval" quickly and then follow the call through GET /api/v1/calls/{id}/wait.
 * (An allowed call runs to completion either way, bounded by the server's call timeout.)
 */
const APPROVAL_WAIT_MS = 2_000;

const playgroundCallSchema = postCallBodySchema.omit({ waitSeconds: true });

/**
 * Runs a tool as the signed-in operator through executeToolCall — the one governed path, so the
 * approval rules apply exactly as for agents. "decide" is the services' rule for operators
 * (requesterFromActor: approvers and admins may call, viewers may not).
 */
export async function runToolAction(input: unknown): Promise<ActionResult<CallDto>> {
  return runAction("decide", async ({ db, actor, tenant }) => {
    const body = parseOrThrow(playgroundCallSchema, input, "The call");
    return executeToolCall(db, {
      tenantId: tenant.id,
      requester: await requesterFromActor(db, actor),
      tool: body.tool,
      arguments: body.arguments,
      idempotencyKey: body.idempotencyKey,
      waitMs: APPROVAL_WAIT_MS,
    });
  });
}
