import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./auth";
import { id, tenantId, timestamps } from "./columns";

/**
 * A workspace's webhooks (lib/webhooks). The URL and the signing secret are sealed (AES-GCM, the
 * secrets key): a Slack incoming-webhook URL is itself a credential. Only a masked form is read back.
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: id(),
    tenantId: tenantId(),
    name: text("name").notNull(),
    format: text("format", { enum: ["slack", "generic"] }).notNull(),
    urlCiphertext: text("url_ciphertext").notNull(),
    /** scheme, host and a masked path: what lists show */
    urlDisplay: text("url_display").notNull(),
    /** HMAC-SHA256 key of the generic format; null for Slack */
    secretCiphertext: text("secret_ciphertext"),
    events: jsonb("events").$type<string[]>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [index("webhooks_tenant_idx").on(t.tenantId)],
);

export type WebhookAttempt = {
  at: string;
  status: number | null;
  error: string | null;
  durationMs: number;
};

/**
 * The outbox: one row per (webhook, event), inserted once whichever process saw the event first
 * (the unique index), claimed by one process's worker at a time (FOR UPDATE SKIP LOCKED + a lease
 * on next_attempt_at), retried with backoff until delivered or out of attempts.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    tenantId: tenantId(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** null for a "Send test" delivery */
    eventId: bigint("event_id", { mode: "number" }),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    attempts: jsonb("attempts").$type<WebhookAttempt[]>().notNull().default([]),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_key").on(t.webhookId, t.eventId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
  ],
);

export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
