import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "./columns";

/** A value is a literal or a reference resolved at connect time; see lib/servers/config-schema.ts. */
export type StoredValue = string | { secret: string } | { fromEnv: string };
export type StoredAuth =
  | { type: "none" }
  | { type: "bearer"; credential: StoredValue }
  | { type: "api_key"; headerName: string; credential: StoredValue }
  | { type: "custom_header"; headerName: string; credential: StoredValue }
  | { type: "oauth"; clientId?: string; clientSecret?: { secret: string }; scopes?: string[] };

/** A registered MCP server: how to reach it. Runtime state lives in server_status. */
export const mcpServers = pgTable(
  "mcp_servers",
  {
    id: id(),
    tenantId: tenantId(),
    name: text("name").notNull(),
    displayName: text("display_name"),
    description: text("description"),
    transport: text("transport", { enum: ["stdio", "streamable-http", "sse"] }).notNull(),
    command: text("command"),
    /** The command resolved to an absolute path on Switchboard's own PATH at registration: what runs. */
    programPath: text("program_path"),
    args: jsonb("args").$type<string[]>().notNull().default([]),
    cwd: text("cwd"),
    env: jsonb("env").$type<Record<string, StoredValue>>().notNull().default({}),
    url: text("url"),
    headers: jsonb("headers").$type<Record<string, StoredValue>>().notNull().default({}),
    auth: jsonb("auth").$type<StoredAuth>().notNull().default({ type: "none" }),
    enabled: boolean("enabled").notNull().default(true),
    connectTimeoutMs: integer("connect_timeout_ms").notNull().default(10_000),
    callTimeoutMs: integer("call_timeout_ms").notNull().default(30_000),
    healthIntervalSeconds: integer("health_interval_seconds").notNull().default(60),
    /**
     * Who set the current launch (command, arguments, folder) as an instance owner, when one did:
     * launch specs open to owners only stay allowed while the launch is the one an owner saved.
     */
    /** An admin's setting: every resources/read of this server waits for a person's approval. */
    resourceReadsNeedApproval: boolean("resource_reads_need_approval").notNull().default(false),
    launchApprovedBy: text("launch_approved_by"),
    /** Why a policy disabled the server (shown as its last error); cleared when it is enabled again. */
    disabledReason: text("disabled_reason"),
    /**
     * Effects Switchboard itself knows for this server's tools (the shipped demo servers only, set at
     * first run): applied by name to tools the first time the catalog is stored, then cleared. Never
     * from the server's own annotations, and never settable through the API.
     */
    // The effect classes of ./catalog, spelled out: importing them from there would be an import cycle.
    knownToolEffects:
      jsonb("known_tool_effects").$type<
        Record<string, "read" | "write" | "external-write" | "destructive">
      >(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("mcp_servers_tenant_name_key").on(t.tenantId, t.name)],
);

export type McpServer = typeof mcpServers.$inferSelect;

// lib/upstream/pool-events.ts connectionStates, spelled out: importing lib from db/ would be a cycle.
const connectionStateValues = [
  "disconnected",
  "connecting",
  "ready",
  "degraded",
  "crash-loop",
  "needs-authorization",
  "disabled",
] as const;
export type NewMcpServer = typeof mcpServers.$inferInsert;

/**
 * Last known connection state per server, written by the connection pool of whichever replica
 * reported last (kept for the release before per-replica status, which reads only this row; and
 * for the server's exit, stderr tail and server info). server_replica_status holds each replica's.
 */
export const serverStatus = pgTable("server_status", {
  serverId: text("server_id")
    .primaryKey()
    .references(() => mcpServers.id, { onDelete: "cascade" }),
  tenantId: tenantId(),
  state: text("state", { enum: connectionStateValues }).notNull().default("disconnected"),
  lastError: text("last_error"),
  lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
  exitCode: integer("exit_code"),
  exitSignal: text("exit_signal"),
  stderrTail: text("stderr_tail"),
  serverInfo: jsonb("server_info").$type<Record<string, unknown>>(),
  capabilities: jsonb("capabilities").$type<Record<string, unknown>>(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each replica's own connection state of a server (lib/servers/replica-status.ts): every replica
 * connects every server, so they can disagree — ready on two, crash-looping on the third. Read
 * together with the replicas' heartbeats: the row of a replica that is gone does not count.
 */
export const serverReplicaStatus = pgTable(
  "server_replica_status",
  {
    serverId: text("server_id")
      .notNull()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    /** replicas.id; no foreign key: a replica's row goes at a graceful stop, its status rows stay until swept */
    replicaId: text("replica_id").notNull(),
    tenantId: tenantId(),
    state: text("state", { enum: connectionStateValues }).notNull().default("disconnected"),
    lastError: text("last_error"),
    lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.serverId, t.replicaId] }),
    index("server_replica_status_replica_idx").on(t.replicaId),
  ],
);

/** Health probe history (on demand and periodic). */
export const healthChecks = pgTable("health_checks", {
  id: id(),
  tenantId: tenantId(),
  serverId: text("server_id")
    .notNull()
    .references(() => mcpServers.id, { onDelete: "cascade" }),
  ok: boolean("ok").notNull(),
  latencyMs: integer("latency_ms"),
  error: text("error"),
  checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
  /** The replica that probed (replicas.id); null for checks recorded before replicas were named. */
  replicaId: text("replica_id"),
});
