"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { authorityOf } from "@/lib/auth/actor";
import { addInstanceOwner, removeInstanceOwner } from "@/lib/auth/instance-owners";
import { updateInstancePolicy } from "@/lib/servers/policy-changes";

// Settings → Instance. Any workspace role may reach these; each service checks instance authority.

/** `disableAffected`: the owner confirmed that servers the new policy refuses are disabled. */
export async function updateInstancePolicyAction(
  input: unknown,
  disableAffected = false,
): Promise<ActionResult<{ disabledServers: string[] }>> {
  const result = await runAction("read", async ({ db, actor }) => {
    const { disabledServers } = await updateInstancePolicy(db, {
      input,
      authority: authorityOf(actor),
      disableAffected: disableAffected === true,
    });
    return { disabledServers };
  });
  if (result.ok) revalidatePath("/settings/instance");
  return result;
}

export async function addInstanceOwnerAction(input: unknown): Promise<ActionResult<null>> {
  const result = await runAction("read", async ({ db, actor }) => {
    await addInstanceOwner(db, { input, authority: authorityOf(actor) });
    return null;
  });
  if (result.ok) revalidatePath("/settings/instance");
  return result;
}

export async function removeInstanceOwnerAction(userId: unknown): Promise<ActionResult<null>> {
  const result = await runAction("read", async ({ db, actor }) => {
    await removeInstanceOwner(db, { userId: String(userId), authority: authorityOf(actor) });
    return null;
  });
  if (result.ok) revalidatePath("/settings/instance");
  return result;
}
