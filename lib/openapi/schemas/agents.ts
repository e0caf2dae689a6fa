import { z } from "zod";
import { agentRunStatuses } from "@/db/schema";
import type { AgentRunDto, ModelConnectionDto } from "@/lib/agents/types";
import { describes } from "../type-check";

/** Model connections and agent runs, as the API answers them: the API key by its secret's name only. */

export const modelConnectionSchema = describes<ModelConnectionDto>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      baseUrl: z.string().meta({ description: "`<baseUrl>/chat/completions` is what is called." }),
      model: z.string(),
      apiKeySecret: z
        .string()
        .nullable()
        .meta({ description: "The workspace secret sent as the bearer key." }),
      createdAt: z.string(),
    })
    .meta({ id: "ModelConnection" }),
);

const stepSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("prompt"), text: z.string() }),
    z.object({
      kind: z.literal("assistant"),
      round: z.number().int(),
      text: z.string().nullable(),
      toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })),
    }),
    z.object({
      kind: z.literal("tool_result"),
      round: z.number().int(),
      toolCallId: z.string(),
      name: z.string(),
      callId: z
        .string()
        .nullable()
        .meta({ description: "The governed call; null when refused before one was made." }),
      status: z.string().meta({ description: 'The call\'s status, or "refused".' }),
      isError: z.boolean(),
      text: z.string().meta({ description: "What the model was given back (bounded)." }),
    }),
    z.object({ kind: z.literal("answer"), text: z.string() }),
  ])
  .meta({ id: "AgentRunStep" });

export const agentRunSchema = describes<AgentRunDto>()(
  z
    .object({
      id: z.string(),
      principal: z.object({ id: z.string(), name: z.string() }),
      model: z.string().meta({ description: "The model connection's name when the run started." }),
      modelConnectionId: z.string().nullable(),
      prompt: z.string(),
      limits: z.object({
        maxRounds: z.number().int(),
        maxToolCalls: z.number().int(),
        timeoutSeconds: z.number().int(),
        maxTokens: z.number().int(),
      }),
      status: z.enum(agentRunStatuses),
      stopReason: z
        .string()
        .nullable()
        .meta({ description: "Why it stopped, in words; null for a final answer." }),
      steps: z.array(stepSchema),
      rounds: z.number().int(),
      toolCalls: z.number().int(),
      tokens: z.number().int(),
      startedBy: z.string(),
      createdAt: z.string(),
      endedAt: z.string().nullable(),
    })
    .meta({ id: "AgentRun" }),
);
