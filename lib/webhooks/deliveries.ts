import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { tenants, webhookDeliveries, webhooks } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { RecordedEvent } from "@/lib/events/event-types";
import type { DeliveryDto } from "./types";
import { webhookMessageOf } from "./webhook-events";
import type { StoredPayload } from "./webhook-payload";

/**
 * The outbox's writers and reader: an event becomes one delivery per subscribed, enabled webhook
 * of its workspace — once, whichever processes see it (the (webhook, event) unique index) — and
 * "Send test" adds one. The worker (delivery-worker) sends them.
 */

export type { DeliveryDto };

/** Inserts the deliveries an event means; returns how many were new. */
export async function enqueueEventDeliveries(db: Queryable, event: RecordedEvent): Promise<number> {
  const message = webhookMessageOf(event);
  if (!message) return 0;
  const subscribed = (
    await db
      .select({ id: webhooks.id, events: webhooks.events })
      .from(webhooks)
      .where(and(eq(webhooks.tenantId, event.tenantId), eq(webhooks.enabled, true)))
  ).filter((row) => row.events.includes(message.type));
  if (subscribed.length === 0) return 0;
  const payload: StoredPayload = {
    id: String(event.id),
    type: message.type,
    createdAt: event.createdAt,
    workspace: await workspaceOf(db, event.tenantId),
    summary: message.summary,
    url: `${readEnv().publicUrl}${message.path}`,
    data: message.data,
  };
  const inserted = await db
    .insert(webhookDeliveries)
    .values(
      subscribed.map((row) => ({
        tenantId: event.tenantId,
        webhookId: row.id,
        eventId: event.id,
        type: message.type,
        payload: payload as unknown as Record<string, unknown>,
      })),
    )
    .onConflictDoNothing({ target: [webhookDeliveries.webhookId, webhookDeliveries.eventId] })
    .returning({ id: webhookDeliveries.id });
  return inserted.length;
}

/** "Send test": a delivery of type webhook.test, sent like any other (retries included). */
export async function enqueueTestDelivery(
  db: Queryable,
  params: { tenantId: string; webhookId: string },
): Promise<DeliveryDto> {
  const [hook] = await db
    .select({ id: webhooks.id, name: webhooks.name })
    .from(webhooks)
    .where(and(eq(webhooks.tenantId, params.tenantId), eq(webhooks.id, params.webhookId)));
  if (!hook) throw new AppError("not_found", "No webhook with this id in this workspace.");
  const payload: StoredPayload = {
    id: `test-${crypto.randomUUID()}`,
    type: "webhook.test",
    createdAt: new Date().toISOString(),
    workspace: await workspaceOf(db, params.tenantId),
    summary: `A test delivery of the webhook "${hook.name}"`,
    url: `${readEnv().publicUrl}/settings/webhooks`,
    data: { webhook: hook.name },
  };
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      tenantId: params.tenantId,
      webhookId: hook.id,
      type: "webhook.test",
      payload: payload as unknown as Record<string, unknown>,
    })
    .returning();
  if (!row) throw new AppError("internal", "The test delivery could not be stored.");
  return toDeliveryDto(row);
}

export async function listDeliveries(
  db: Queryable,
  params: { tenantId: string; webhookId: string; limit?: number },
): Promise<DeliveryDto[]> {
  const [hook] = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.tenantId, params.tenantId), eq(webhooks.id, params.webhookId)));
  if (!hook) throw new AppError("not_found", "No webhook with this id in this workspace.");
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, hook.id))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(Math.min(Math.max(params.limit ?? 50, 1), 200));
  return rows.map(toDeliveryDto);
}

export function toDeliveryDto(row: typeof webhookDeliveries.$inferSelect): DeliveryDto {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function workspaceOf(db: Queryable, tenantId: string): Promise<{ id: string; name: string }> {
  const [row] = await db
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row ?? { id: tenantId, name: tenantId };
}
