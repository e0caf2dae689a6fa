import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "./columns";
import { principals } from "./principals";

/**
 * A workspace's model endpoints for agent runs (lib/agents): any OpenAI-compatible chat-completions
 * API. The API key is a reference to a workspace secret, never a value.
 */
export const modelConnections = pgTable(
  "model_connections",
  {
    id: id(),
    tenantId: tenantId(),
    name: text("name").notNull(),
    /** up to and including the version segment: `<baseUrl>/chat/completions` is what is called */
    baseUrl: text("base_url").notNull(),
    model: text("model").notNull(),
    /** a workspace secret's name, sent as `Authorization: Bearer`; null for endpoints without keys */
    apiKeySecret: text("api_key_secret"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("model_connections_tenant_name_key").on(t.tenantId, t.name)],
);

export const agentRunStatuses = ["running", "succeeded", "failed", "cancelled", "limit_reached"] as const;
export type AgentRunStatus = (typeof agentRunStatuses)[number];

/** One step of a run, in order: what the run page and the CLI show. */
export type AgentRunStep =
  | { kind: "prompt"; text: string }
  | {
      kind: "assistant";
      round: number;
      text: string | null;
      toolCalls: Array<{ id: string; name: string; arguments: string }>;
    }
  | {
      kind: "tool_result";
      round: number;
      toolCallId: string;
      name: string;
      /** the governed call it became; null when it was refused before one was made */
      callId: string | null;
      /** the call's status, or "refused" (not offered, arguments that do not fit) */
      status: string;
      isError: boolean;
      /** what the model was given back, bounded */
      text: string;
    }
  | { kind: "answer"; text: string };

export type AgentRunLimits = {
  maxRounds: number;
  maxToolCalls: number;
  timeoutSeconds: number;
  maxTokens: number;
};

/** A bounded tool-calling loop run as a principal (lib/agents/run-agent.ts). */
export const agentRuns = pgTable(
  "agent_runs",
  {
    id: id(),
    tenantId: tenantId(),
    principalId: text("principal_id")
      .notNull()
      .references(() => principals.id, { onDelete: "cascade" }),
    principalName: text("principal_name").notNull(),
    modelConnectionId: text("model_connection_id").references(() => modelConnections.id, {
      onDelete: "set null",
    }),
    /** the connection's name and model when the run started: kept if the connection goes */
    modelName: text("model_name").notNull(),
    prompt: text("prompt").notNull(),
    limits: jsonb("limits").$type<AgentRunLimits>().notNull(),
    status: text("status", { enum: agentRunStatuses }).notNull().default("running"),
    /** why it stopped, in words (the limit reached, the model's or a tool's error, who cancelled) */
    stopReason: text("stop_reason"),
    steps: jsonb("steps").$type<AgentRunStep[]>().notNull().default([]),
    rounds: integer("rounds").notNull().default(0),
    toolCalls: integer("tool_calls").notNull().default(0),
    tokens: integer("tokens").notNull().default(0),
    /** who started it: an operator's or API key's name */
    startedBy: text("started_by").notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index("agent_runs_tenant_created_idx").on(t.tenantId, t.createdAt)],
);
