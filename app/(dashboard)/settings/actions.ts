"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { auditActorOf } from "@/lib/auth/actor";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { createInvitation, revokeInvitation } from "@/lib/auth/invitations";
import { changeMemberRole, removeMember } from "@/lib/auth/members";
import { type GatewaySettings, putGatewaySettings } from "@/lib/gateway/settings/loopback-mapping";
import { putGatewayNameBudget } from "@/lib/gateway/settings/name-budget";
import { putApprovalPolicy } from "@/lib/policy/approval-rules";
import { deleteSecret, putSecret, putSecretSchema, secretNameSchema } from "@/lib/secrets/secrets";
import { updateWorkspaceEgressPolicy } from "@/lib/servers/policy-changes";
import { parseOrThrow } from "@/lib/validation";

export async function createInvitationAction(
  input: unknown,
): Promise<ActionResult<{ url: string; expiresAt: string }>> {
  const result = await runAction("manage", ({ db, tenant, actor }) =>
    createInvitation(db, { tenantId: tenant.id, input, by: auditActorOf(actor) }),
  );
  if (result.ok) revalidatePath("/settings/members");
  return result;
}

export async function revokeInvitationAction(id: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await revokeInvitation(db, { tenantId: tenant.id, id: String(id), by: auditActorOf(actor) });
    return null;
  });
  if (result.ok) revalidatePath("/settings/members");
  return result;
}

export async function changeRoleAction(userId: unknown, input: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await changeMemberRole(db, {
      tenantId: tenant.id,
      userId: String(userId),
      input,
      by: auditActorOf(actor),
    });
    return null;
  });
  if (result.ok) revalidatePath("/settings/members");
  return result;
}

export async function removeMemberAction(userId: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await removeMember(db, { tenantId: tenant.id, userId: String(userId), by: auditActorOf(actor) });
    return null;
  });
  if (result.ok) revalidatePath("/settings/members");
  return result;
}

export async function createApiKeyAction(input: unknown): Promise<ActionResult<{ key: string }>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    const { key } = await createApiKey(db, {
      tenantId: tenant.id,
      input,
      by: auditActorOf(actor),
      instanceOwner: actor.instanceOwner,
    });
    return { key };
  });
  if (result.ok) revalidatePath("/settings/api-keys");
  return result;
}

export async function revokeApiKeyAction(id: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await revokeApiKey(db, { tenantId: tenant.id, id: String(id), by: auditActorOf(actor) });
    return null;
  });
  if (result.ok) revalidatePath("/settings/api-keys");
  return result;
}

/** `disableAffected`: the person confirmed that servers the new policy refuses are disabled. */
export async function updateEgressPolicyAction(
  input: unknown,
  disableAffected = false,
): Promise<ActionResult<{ disabledServers: string[] }>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    const { disabledServers } = await updateWorkspaceEgressPolicy(db, {
      tenantId: tenant.id,
      input,
      disableAffected: disableAffected === true,
      by: auditActorOf(actor),
    });
    return { disabledServers };
  });
  if (result.ok) revalidatePath("/settings/egress");
  return result;
}

export async function updateGatewaySettingsAction(input: unknown): Promise<ActionResult<GatewaySettings>> {
  const result = await runAction("manage", ({ db, tenant, actor }) =>
    putGatewaySettings(db, { tenantId: tenant.id, input, actor }),
  );
  if (result.ok) revalidatePath("/settings/gateway");
  return result;
}

export async function updateGatewayNameBudgetAction(input: unknown): Promise<ActionResult<GatewaySettings>> {
  const result = await runAction("manage", ({ db, tenant, actor }) =>
    putGatewayNameBudget(db, { tenantId: tenant.id, input, actor }),
  );
  // The names show on every page that lists tools.
  if (result.ok) revalidatePath("/", "layout");
  return result;
}

export async function updateApprovalPolicyAction(input: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await putApprovalPolicy(db, { tenantId: tenant.id, input, by: auditActorOf(actor) });
    return null;
  });
  if (result.ok) revalidatePath("/settings/approvals");
  return result;
}

/** Writes a secret's value (write-only: it never comes back out); errors by field, as a form needs. */
export async function putSecretAction(
  input: unknown,
): Promise<ActionResult<{ name: string; created: boolean }>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    const { name, value } = parseOrThrow(secretFormSchema, input, "The secret");
    const { created } = await putSecret(db, { tenantId: tenant.id, name, value, by: auditActorOf(actor) });
    return { name, created };
  });
  if (result.ok) revalidatePath("/settings/secrets");
  return result;
}

export async function deleteSecretAction(name: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await deleteSecret(db, {
      tenantId: tenant.id,
      name: parseOrThrow(secretNameSchema, name, "The secret name"),
      by: auditActorOf(actor),
    });
    return null;
  });
  if (result.ok) revalidatePath("/settings/secrets");
  return result;
}

const secretFormSchema = putSecretSchema.extend({ name: secretNameSchema });
