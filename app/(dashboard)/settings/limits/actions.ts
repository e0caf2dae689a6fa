"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { auditActorOf } from "@/lib/auth/actor";
import { putLimitsPolicy } from "@/lib/limits/limits-policy";

/** Saves the workspace's call limits; the service validates `input` as PUT /api/v1/policy/limits does. */
export async function updateLimitsAction(input: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await putLimitsPolicy(db, { tenantId: tenant.id, input, by: auditActorOf(actor) });
    return null;
  });
  if (result.ok) revalidatePath("/settings/limits");
  return result;
}
