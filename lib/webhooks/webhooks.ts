import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { webhooks } from "@/db/schema";
import { type AuditActor, auditedBy, recordAudit, userIdOf } from "@/lib/auth/audit";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { openValue, sealValue } from "@/lib/secrets/secrets";
import { assertServerAllowed } from "@/lib/servers/server-policy-check";
import { parseOrThrow, whenMissing } from "@/lib/validation";
import { maskUrl } from "./mask-url";
import type { WebhookDto } from "./types";
import { webhookEventTypes } from "./webhook-events";
import { newSigningSecret } from "./webhook-payload";

/**
 * A workspace's webhooks: create, list, change, delete (admins). The URL is judged by the
 * workspace's egress policy here, and again with the address pinned at every delivery
 * (webhook-fetch). The URL and the signing secret are sealed; the secret is shown once, at creation.
 */

const urlSchema = z
  .string(whenMissing("A URL is required."))
  .trim()
  .max(2048, { error: "The URL is limited to 2048 characters." })
  .refine((value) => URL.canParse(value), {
    error: "Enter a full URL, e.g. https://hooks.example.com/switchboard.",
  })
  .refine((value) => /^https?:$/.test(new URL(value).protocol), {
    error: "The URL must start with https:// or http://.",
  })
  .refine((value) => !new URL(value).username && !new URL(value).password, {
    error: "Put no user name or password in the URL: Switchboard signs deliveries instead.",
  });

const nameSchema = z
  .string(whenMissing("A name is required."))
  .trim()
  .min(1, { error: "A name is required." })
  .max(100, { error: "A name is limited to 100 characters." });

const eventsSchema = z
  .array(z.enum(webhookEventTypes, { error: `Events are ${webhookEventTypes.join(", ")}.` }))
  .min(1, { error: "Choose at least one event." })
  .transform((events) => [...new Set(events)]);

export const createWebhookSchema = z.strictObject({
  name: nameSchema,
  url: urlSchema,
  format: z.enum(["slack", "generic"], { error: 'The format is "slack" or "generic".' }),
  events: eventsSchema,
  enabled: z.boolean().default(true),
});
export type CreateWebhookInput = z.input<typeof createWebhookSchema>;

export const updateWebhookSchema = z.strictObject({
  name: nameSchema.optional(),
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  enabled: z.boolean().optional(),
});

export type { WebhookDto };

const urlAad = (id: string) => `webhook/${id}/url`;
const secretAad = (id: string) => `webhook/${id}/secret`;

const toDto = (row: typeof webhooks.$inferSelect): WebhookDto => ({
  id: row.id,
  name: row.name,
  format: row.format,
  url: row.urlDisplay,
  events: row.events,
  enabled: row.enabled,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The check an HTTP server's URL gets at registration: its refusal names the policy, the rule and the field "url". */
async function assertUrlAllowed(db: Queryable, tenantId: string, url: string): Promise<void> {
  await assertServerAllowed(db, {
    tenantId,
    config: { transport: "streamable-http", url },
    ownerLaunch: false,
  });
}

export async function listWebhooks(db: Queryable, params: { tenantId: string }): Promise<WebhookDto[]> {
  const rows = await db
    .select()
    .from(webhooks)
    .where(eq(webhooks.tenantId, params.tenantId))
    .orderBy(desc(webhooks.createdAt));
  return rows.map(toDto);
}

export async function getWebhook(
  db: Queryable,
  params: { tenantId: string; id: string },
): Promise<WebhookDto> {
  return toDto(await findRow(db, params));
}

async function findRow(db: Queryable, params: { tenantId: string; id: string }) {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.tenantId, params.tenantId), eq(webhooks.id, params.id)));
  if (!row) throw new AppError("not_found", "No webhook with this id in this workspace.");
  return row;
}

/** Creates a webhook; the signing secret (generic format) comes back here and never again. */
export async function createWebhook(
  db: Database,
  params: { tenantId: string; input: unknown; by: AuditActor },
): Promise<{ webhook: WebhookDto; secret: string | null }> {
  const input = parseOrThrow(createWebhookSchema, params.input, "The webhook");
  await assertUrlAllowed(db, params.tenantId, input.url);
  const id = crypto.randomUUID();
  const secret = input.format === "generic" ? newSigningSecret() : null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhooks)
      .values({
        id,
        tenantId: params.tenantId,
        name: input.name,
        format: input.format,
        urlCiphertext: sealValue(input.url, urlAad(id)),
        urlDisplay: maskUrl(input.url),
        secretCiphertext: secret ? sealValue(secret, secretAad(id)) : null,
        events: input.events,
        enabled: input.enabled,
        createdBy: userIdOf(params.by),
      })
      .returning();
    if (!row) throw new AppError("internal", "The webhook could not be stored.");
    await recordAudit(tx, {
      tenantId: params.tenantId,
      action: "webhook.created",
      ...auditedBy(params.by),
      subject: row.name,
      detail: `${row.format} → ${row.urlDisplay} (${row.events.join(", ")})`,
    });
    return { webhook: toDto(row), secret };
  });
}

export async function updateWebhook(
  db: Database,
  params: { tenantId: string; id: string; input: unknown; by: AuditActor },
): Promise<WebhookDto> {
  const input = parseOrThrow(updateWebhookSchema, params.input, "The webhook");
  const current = await findRow(db, params);
  if (input.url !== undefined) await assertUrlAllowed(db, params.tenantId, input.url);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhooks)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.events !== undefined && { events: input.events }),
        ...(input.enabled !== undefined && { enabled: input.enabled }),
        ...(input.url !== undefined && {
          urlCiphertext: sealValue(input.url, urlAad(current.id)),
          urlDisplay: maskUrl(input.url),
        }),
        updatedAt: new Date(),
      })
      .where(and(eq(webhooks.tenantId, params.tenantId), eq(webhooks.id, current.id)))
      .returning();
    if (!row) throw new AppError("not_found", "No webhook with this id in this workspace.");
    const changed = Object.keys(input).filter((key) => input[key as keyof typeof input] !== undefined);
    await recordAudit(tx, {
      tenantId: params.tenantId,
      action: "webhook.updated",
      ...auditedBy(params.by),
      subject: row.name,
      detail: changed.length > 0 ? `changed ${changed.join(", ")}` : "no change",
    });
    return toDto(row);
  });
}

export async function deleteWebhook(
  db: Database,
  params: { tenantId: string; id: string; by: AuditActor },
): Promise<void> {
  const current = await findRow(db, params);
  await db.transaction(async (tx) => {
    await tx.delete(webhooks).where(and(eq(webhooks.tenantId, params.tenantId), eq(webhooks.id, current.id)));
    await recordAudit(tx, {
      tenantId: params.tenantId,
      action: "webhook.deleted",
      ...auditedBy(params.by),
      subject: current.name,
      detail: current.urlDisplay,
    });
  });
}

/** The URL and secret a delivery needs — for the worker only, never for a route. */
export function openWebhookTarget(row: typeof webhooks.$inferSelect): { url: string; secret: string | null } {
  return {
    url: openValue(row.urlCiphertext, urlAad(row.id)),
    secret: row.secretCiphertext ? openValue(row.secretCiphertext, secretAad(row.id)) : null,
  };
}
