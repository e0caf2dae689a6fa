"use server";

import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { postCallBodySchema } from "@/lib/calls/call-body";
import type { CallDto } from "@/lib/calls/call-view";
import { executeToolCall } from "@/lib/calls/execute-tool-call";
import { requesterFromActor } from "@/lib/calls/requester";
import { completeArgument } from "@/lib/inspect/complete-argument";
import { getPromptAsOperator, readResourceAsOperator } from "@/lib/inspect/operator-reads";
import type { CompletionDto } from "@/lib/inspect/types";
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

/** Reads a resource the server lists (or one of its templates matches) as the operator: recorded, gated like the gateway's. */
export async function readResourceAction(input: unknown): Promise<ActionResult<CallDto>> {
  return runAction("decide", async ({ db, actor, tenant }) =>
    readResourceAsOperator(db, {
      tenantId: tenant.id,
      requester: await requesterFromActor(db, actor),
      input,
      waitMs: APPROVAL_WAIT_MS,
    }),
  );
}

/** Gets a prompt the server lists, with its arguments, as the operator: recorded like the gateway's. */
export async function getPromptAction(input: unknown): Promise<ActionResult<CallDto>> {
  return runAction("decide", async ({ db, actor, tenant }) =>
    getPromptAsOperator(db, {
      tenantId: tenant.id,
      requester: await requesterFromActor(db, actor),
      input,
      waitMs: APPROVAL_WAIT_MS,
    }),
  );
}

/** Suggestions for a prompt's or template's argument: not a call, but the same permission as one. */
export async function completeArgumentAction(input: unknown): Promise<ActionResult<CompletionDto>> {
  return runAction("decide", async ({ db, actor, tenant }) =>
    completeArgument(db, { tenantId: tenant.id, requester: await requesterFromActor(db, actor), input }),
  );
}
