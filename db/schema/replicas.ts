import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { tenantId } from "./columns";

/**
 * The Switchboard processes sharing this database (lib/runtime/replica.ts). Each writes its row at
 * start and every few seconds after (heartbeat); a graceful stop removes it, a crash leaves it to
 * go stale. No workspace owns a replica: rows are the operator's, never a tenant's input.
 */
export const replicas = pgTable("replicas", {
  /** SWITCHBOARD_REPLICA_ID, or host:port */
  id: text("id").primaryKey(),
  /** Where other replicas reach this one: a gateway session's requests are handed to it there. */
  url: text("url").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which replica holds each open gateway session (lib/gateway/sessions/session-owners.ts): a request
 * for a session that lands on another replica is handed to its owner. The session's state itself
 * (its streams, requests in flight to the client) lives in the owner's memory.
 */
export const gatewaySessionOwners = pgTable(
  "gateway_session_owners",
  {
    sessionId: text("session_id").primaryKey(),
    replicaId: text("replica_id").notNull(),
    tenantId: tenantId(),
    principalId: text("principal_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("gateway_session_owners_replica_idx").on(t.replicaId)],
);
