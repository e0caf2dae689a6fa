import { jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "./columns";

/** An agent or MCP client. Authenticates with API keys; may call only what its grants allow. */
export const principals = pgTable(
  "principals",
  {
    id: id(),
    tenantId: tenantId(),
    name: text("name").notNull(),
    description: text("description"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("principals_tenant_name_key").on(t.tenantId, t.name)],
);

/**
 * admin: manages the workspace while its creator is an admin of it; owner: acts as an instance owner
 * (Settings → Instance) while its creator is one (the bootstrap key always); gateway: a principal's
 * key only, for /mcp and /calls (lib/auth/key-standing.ts).
 */
export const apiKeyScopes = ["admin", "gateway", "owner"] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];
/** What a workspace key (not a principal's) may be given. */
export const workspaceKeyScopes = ["admin", "owner"] as const;

/** API keys: only a SHA-256 hash is stored; the prefix is shown so people can tell keys apart. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    tenantId: tenantId(),
    principalId: text("principal_id").references(() => principals.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    scopes: jsonb("scopes").$type<ApiKeyScope[]>().notNull(),
    /**
     * the person it acts for: its creator, or the creator of the key that made it; null for the
     * machine's bootstrap key and keys made with it (lib/auth/key-standing.ts)
     */
    createdBy: text("created_by"),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.keyHash)],
);

/** principal → tool pattern (`server__tool`, `server__*`, `*`). Deny by default. */
export const grants = pgTable(
  "grants",
  {
    id: id(),
    tenantId: tenantId(),
    principalId: text("principal_id")
      .notNull()
      .references(() => principals.id, { onDelete: "cascade" }),
    toolPattern: text("tool_pattern").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("grants_principal_pattern_key").on(t.principalId, t.toolPattern)],
);
