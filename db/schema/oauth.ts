import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { tenantId } from "./columns";
import { mcpServers } from "./servers";

/**
 * A server's OAuth standing (issue #17): how Switchboard registered as a client with its
 * authorization server, and the tokens it holds. Client information and tokens are AES-256-GCM
 * ciphertext under the same key as secrets, bound to the server's id (lib/oauth/oauth-store.ts):
 * no route ever returns them.
 */
export const serverOAuth = pgTable("server_oauth", {
  serverId: text("server_id")
    .primaryKey()
    .references(() => mcpServers.id, { onDelete: "cascade" }),
  tenantId: tenantId(),
  status: text("status", { enum: ["not_connected", "connected", "needs_authorization"] })
    .notNull()
    .default("not_connected"),
  /** How the client was registered: shown to the admin. */
  registration: text("registration", { enum: ["metadata_document", "dynamic", "manual"] }),
  /** The authorization server the client information and tokens belong to. */
  issuer: text("issuer"),
  /** What discovery found (RFC 9728 and RFC 8414 documents): public, kept to skip discovery. */
  discovery: jsonb("discovery").$type<Record<string, unknown>>(),
  clientInformation: text("client_information"),
  tokens: text("tokens"),
  /** Bumped by every token write: a process drops tokens only when they are still the ones it read. */
  tokenVersion: integer("token_version").notNull().default(0),
  accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
  /** The scopes the last token was granted. */
  scope: text("scope"),
  /** A scope the server asked for (403 insufficient_scope): a re-authorization should request it. */
  neededScope: text("needed_scope"),
  /** The last failure: which step, the HTTP status, a sentence with no token or code in it. */
  problem: jsonb("problem").$type<{ step: string; status: number | null; message: string; at: string }>(),
  connectedBy: text("connected_by"),
  connectedAt: timestamp("connected_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An authorization under way: the `state` sent to the authorization server (stored as its hash),
 * bound to whoever started it and to the server, used once, expiring after a few minutes.
 */
export const oauthAuthorizations = pgTable("oauth_authorizations", {
  stateHash: text("state_hash").primaryKey(),
  tenantId: tenantId(),
  serverId: text("server_id")
    .notNull()
    .references(() => mcpServers.id, { onDelete: "cascade" }),
  /** The person who started it; null when an API key without a person did (the CLI's bootstrap key). */
  userId: text("user_id"),
  startedBy: text("started_by").notNull(),
  codeVerifier: text("code_verifier").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});

export type ServerOAuth = typeof serverOAuth.$inferSelect;
