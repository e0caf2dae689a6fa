import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "./columns";
import { mcpServers } from "./servers";

export const effectClasses = ["read", "write", "external-write", "destructive"] as const;
export type EffectClass = (typeof effectClasses)[number];

/** One discovered tool, with what an admin decided about it. */
export const tools = pgTable(
  "tools",
  {
    id: id(),
    tenantId: tenantId(),
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** `<server>__<tool>` in `[A-Za-z0-9_-]`, shortened with a hash suffix past the workspace's name budget (lib/catalog/naming). */
    gatewayName: text("gateway_name").notNull(),
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    definitionHash: text("definition_hash").notNull(),
    /** null = never classified by an admin (enforced as external-write). */
    effect: text("effect", { enum: effectClasses }),
    approvalRule: text("approval_rule", { enum: ["by-effect", "always", "never"] })
      .notNull()
      .default("by-effect"),
    enabled: boolean("enabled").notNull().default(true),
    /**
     * Set by an admin (typically after the tool crashed its server): every call is refused until an
     * admin reviews the tool and clears it. Who set it, and why, are kept beside it.
     */
    quarantinedAt: timestamp("quarantined_at", { withTimezone: true }),
    quarantinedBy: text("quarantined_by"),
    quarantineReason: text("quarantine_reason"),
    removedAt: timestamp("removed_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("tools_server_name_key").on(t.serverId, t.name),
    index("tools_tenant_gateway_name_idx").on(t.tenantId, t.gatewayName),
    // The live tools in the order GET /api/v1/tools pages them (lib/catalog/tool-query): a page is
    // read straight off it. Partial, so PostgreSQL picks it even with no statistics (PGlite).
    index("tools_live_page_idx").on(t.tenantId, t.gatewayName, t.id).where(sql`${t.removedAt} is null`),
  ],
);

/** Resources, resource templates and prompts: data a server offers, never instructions. */
export const catalogEntries = pgTable(
  "catalog_entries",
  {
    id: id(),
    tenantId: tenantId(),
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["resource", "resource-template", "prompt"] }).notNull(),
    key: text("key").notNull(),
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("catalog_entries_server_kind_key").on(t.serverId, t.kind, t.key)],
);

/** A hash over the full catalog of a server at one moment; a new row on every change. */
export const catalogSnapshots = pgTable(
  "catalog_snapshots",
  {
    id: id(),
    tenantId: tenantId(),
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    hash: text("hash").notNull(),
    catalog: jsonb("catalog").$type<Record<string, unknown>>().notNull(),
    diff: jsonb("diff").$type<Record<string, unknown>>(),
    takenAt: timestamp("taken_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("catalog_snapshots_server_idx").on(t.serverId, t.takenAt)],
);

/**
 * A call that was running when its server's process exited on its own: who may have crashed the
 * server. One row per call in flight at the exit. `call_id` has no foreign key: on PGlite a call
 * may reach its table after the crash is written (call-journal).
 */
export const serverCrashCalls = pgTable(
  "server_crash_calls",
  {
    id: id(),
    tenantId: tenantId(),
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    callId: text("call_id").notNull(),
    /** the server's own name of the tool */
    toolName: text("tool_name").notNull(),
    exitCode: integer("exit_code"),
    exitSignal: text("exit_signal"),
    crashedAt: timestamp("crashed_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("server_crash_calls_server_idx").on(t.serverId, t.crashedAt)],
);
