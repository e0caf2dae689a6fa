import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { calls } from "./calls";
import { id, tenantId } from "./columns";

/**
 * A downstream server's form elicitation (elicitation/create) that the call's caller could not
 * answer, put to the workspace's operators (lib/elicitations). Answered exactly once: one
 * conditional update from "pending". The content is what an operator typed, kept like a call's
 * arguments (readable by whoever may read the call).
 */
export const elicitationStatuses = ["pending", "accepted", "declined", "cancelled", "expired"] as const;
export type ElicitationStatus = (typeof elicitationStatuses)[number];

export const elicitations = pgTable(
  "elicitations",
  {
    id: id(),
    tenantId: tenantId(),
    callId: text("call_id")
      .notNull()
      .references(() => calls.id, { onDelete: "cascade" }),
    serverId: text("server_id"),
    serverName: text("server_name").notNull(),
    message: text("message").notNull(),
    requestedSchema: jsonb("requested_schema").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: elicitationStatuses }).notNull().default("pending"),
    content: jsonb("content").$type<Record<string, unknown>>(),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("elicitations_tenant_status_idx").on(t.tenantId, t.status),
    index("elicitations_call_idx").on(t.callId),
  ],
);
