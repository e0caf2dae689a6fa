import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { startAgentRunSchema } from "@/lib/agents/agent-runs";
import { createModelConnectionSchema } from "@/lib/agents/model-connections";
import { operation } from "../operation";
import { agentRunSchema, modelConnectionSchema } from "../schemas/agents";

/** Model connections and agent runs: a bounded tool-calling loop run as a principal. */

const id = (what: string) => z.object({ id: z.string().meta({ description: `The ${what}'s id.` }) });
const oneRun = z.object({ run: agentRunSchema });

export const agentPaths: ZodOpenApiPathsObject = {
  "/api/v1/model-connections": {
    get: operation("Agents", {
      id: "listModelConnections",
      summary: "The workspace's model endpoints",
      access: "read",
      responses: [
        {
          status: 200,
          description: "The connections.",
          schema: z.object({ modelConnections: z.array(modelConnectionSchema) }),
        },
      ],
    }),
    post: operation("Agents", {
      id: "createModelConnection",
      summary: "Add an OpenAI-compatible model endpoint",
      description:
        "Any chat-completions API (OpenAI, Azure OpenAI, OpenRouter, Ollama, vLLM, LM Studio). The base URL must " +
        "pass the workspace's egress policy (and does again, with the address pinned, at every request); the key " +
        "is a workspace secret's name.",
      access: "manage",
      body: createModelConnectionSchema,
      bodyLimitKiB: 16,
      responses: [
        { status: 201, description: "Added.", schema: z.object({ modelConnection: modelConnectionSchema }) },
      ],
      errors: [409],
    }),
  },
  "/api/v1/model-connections/{id}": {
    delete: operation("Agents", {
      id: "deleteModelConnection",
      summary: "Remove a model endpoint",
      description: "Its runs stay, with its name.",
      access: "manage",
      path: id("model connection"),
      responses: [{ status: 204, description: "Removed." }],
    }),
  },
  "/api/v1/agent-runs": {
    get: operation("Agents", {
      id: "listAgentRuns",
      summary: "The workspace's latest agent runs (100)",
      access: "read",
      responses: [
        {
          status: 200,
          description: "The runs, newest first.",
          schema: z.object({ runs: z.array(agentRunSchema) }),
        },
      ],
    }),
    post: operation("Agents", {
      id: "startAgentRun",
      summary: "Start an agent run as a principal",
      description:
        "The model is offered exactly the principal's granted tools; every tool call it makes goes the governed " +
        "path as that principal (grants, effects, approvals, the call history). Answers at once with the run as " +
        "started; follow it with `GET /api/v1/agent-runs/{id}` or the `agent_run.*` events.",
      access: "manage",
      body: startAgentRunSchema,
      bodyLimitKiB: 128,
      responses: [{ status: 202, description: "Started.", schema: oneRun }],
    }),
  },
  "/api/v1/agent-runs/{id}": {
    get: operation("Agents", {
      id: "getAgentRun",
      summary: "One agent run: its steps so far and how it ended",
      access: "read",
      path: id("run"),
      responses: [{ status: 200, description: "The run.", schema: oneRun }],
    }),
  },
  "/api/v1/agent-runs/{id}/cancel": {
    post: operation("Agents", {
      id: "cancelAgentRun",
      summary: "Cancel a running agent run",
      description:
        "Its in-flight tool call is cancelled downstream; a call waiting for approval is withdrawn.",
      access: "manage",
      path: id("run"),
      responses: [{ status: 200, description: "Cancelled.", schema: oneRun }],
      errors: [[409, "The run already ended."]],
    }),
  },
};
