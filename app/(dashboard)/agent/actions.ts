"use server";

import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { cancelAgentRun, startAgentRun } from "@/lib/agents/agent-runs";
import { createModelConnection, deleteModelConnection } from "@/lib/agents/model-connections";
import type { ModelConnectionDto } from "@/lib/agents/types";
import { auditActorOf } from "@/lib/auth/actor";

/**
 * The Agent page's writes: the same services as /api/v1/agent-runs and /api/v1/model-connections,
 * validated there. No revalidatePath: the page reads through React Query, kept fresh by the event
 * stream and by the invalidation that follows each action.
 */

export async function startAgentRunAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return runAction("manage", async ({ db, tenant, actor }) => {
    const run = await startAgentRun(db, {
      tenantId: tenant.id,
      input,
      by: auditActorOf(actor),
      startedBy: actor.name,
    });
    return { id: run.id };
  });
}

export async function cancelAgentRunAction(id: unknown): Promise<ActionResult<{ id: string }>> {
  return runAction("manage", async ({ db, tenant, actor }) => {
    const run = await cancelAgentRun(db, {
      tenantId: tenant.id,
      id: String(id),
      by: auditActorOf(actor),
      byName: actor.name,
    });
    return { id: run.id };
  });
}

export async function createModelConnectionAction(input: unknown): Promise<ActionResult<ModelConnectionDto>> {
  return runAction("manage", async ({ db, tenant, actor }) =>
    createModelConnection(db, { tenantId: tenant.id, input, by: auditActorOf(actor) }),
  );
}

export async function deleteModelConnectionAction(id: unknown): Promise<ActionResult<null>> {
  return runAction("manage", async ({ db, tenant, actor }) => {
    await deleteModelConnection(db, { tenantId: tenant.id, id: String(id), by: auditActorOf(actor) });
    return null;
  });
}
