/** What lib/agents offers the browser: types only (.dependency-cruiser.cjs). */
import type { AgentRunLimits, AgentRunStatus, AgentRunStep } from "@/db/schema";

export type { AgentRunLimits, AgentRunStatus, AgentRunStep };

export type ModelConnectionDto = {
  id: string;
  name: string;
  baseUrl: string;
  model: string;
  /** the workspace secret sent as the bearer key; null when the endpoint needs none */
  apiKeySecret: string | null;
  createdAt: string;
};

export type AgentRunDto = {
  id: string;
  principal: { id: string; name: string };
  /** the connection's name when the run started */
  model: string;
  modelConnectionId: string | null;
  prompt: string;
  limits: AgentRunLimits;
  status: AgentRunStatus;
  stopReason: string | null;
  steps: AgentRunStep[];
  rounds: number;
  toolCalls: number;
  tokens: number;
  startedBy: string;
  createdAt: string;
  endedAt: string | null;
};
