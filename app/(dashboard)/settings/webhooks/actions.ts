"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { auditActorOf } from "@/lib/auth/actor";
import { enqueueTestDelivery } from "@/lib/webhooks/deliveries";
import { nudgeWebhookWorker } from "@/lib/webhooks/delivery-worker";
import { createWebhook, deleteWebhook, updateWebhook } from "@/lib/webhooks/webhooks";

/** Settings → Webhooks: the same services as /api/v1/webhooks, validated there. */

export async function createWebhookAction(
  input: unknown,
): Promise<ActionResult<{ name: string; secret: string | null }>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    const { webhook, secret } = await createWebhook(db, {
      tenantId: tenant.id,
      input,
      by: auditActorOf(actor),
    });
    return { name: webhook.name, secret };
  });
  if (result.ok) revalidatePath("/settings/webhooks");
  return result;
}

export async function setWebhookEnabledAction(id: unknown, enabled: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await updateWebhook(db, {
      tenantId: tenant.id,
      id: String(id),
      input: { enabled },
      by: auditActorOf(actor),
    });
    return null;
  });
  if (result.ok) revalidatePath("/settings/webhooks");
  return result;
}

export async function deleteWebhookAction(id: unknown): Promise<ActionResult<null>> {
  const result = await runAction("manage", async ({ db, tenant, actor }) => {
    await deleteWebhook(db, { tenantId: tenant.id, id: String(id), by: auditActorOf(actor) });
    return null;
  });
  if (result.ok) revalidatePath("/settings/webhooks");
  return result;
}

export async function testWebhookAction(id: unknown): Promise<ActionResult<null>> {
  return runAction("manage", async ({ db, tenant }) => {
    await enqueueTestDelivery(db, { tenantId: tenant.id, webhookId: String(id) });
    nudgeWebhookWorker();
    return null;
  });
}
