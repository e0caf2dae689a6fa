import "server-only";
import { z } from "zod";
import type { Database } from "@/lib/db/client";
import { checkServerPolicy, resolverWithinPolicy } from "@/lib/policy/server-policy";
import { readSecretValue } from "@/lib/secrets/secrets";
import { loadServerPolicies, policyRefusalError } from "@/lib/servers/server-policy-check";
import { createPinnedFetch } from "@/lib/upstream/transport/pinned-fetch";
import { describeNetworkError } from "@/lib/upstream/transports";
import type { ModelConnectionDto } from "./types";

/**
 * One chat-completions request to an OpenAI-compatible endpoint, through the same egress
 * machinery as a server's connection and a webhook's delivery: the URL is judged by the workspace's
 * policies at every request and the socket's address comes from a resolver that refuses what they
 * refuse. Whatever goes wrong — unreachable, a refused key, a page that is not JSON, JSON that is no
 * chat completion, no answer in time — is a ModelError whose message says which, in words.
 */

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
    }
  | { role: "tool"; tool_call_id: string; content: string };

export type ChatTool = {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown> };
};

export type ModelTurn = {
  text: string | null;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  tokens: number;
};

export class ModelError extends Error {
  override name = "ModelError";
}

/** An answer bigger than this is no chat completion we want to parse. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().optional(),
                function: z.object({ name: z.string(), arguments: z.string().nullish() }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1, { error: "it has no choices" }),
  usage: z.object({ total_tokens: z.number().optional() }).nullish(),
});

export async function requestCompletion(
  db: Database,
  params: {
    tenantId: string;
    connection: ModelConnectionDto;
    messages: ChatMessage[];
    tools: ChatTool[];
    signal: AbortSignal;
    timeoutMs: number;
  },
): Promise<ModelTurn> {
  const { connection } = params;
  const url = `${connection.baseUrl}/chat/completions`;
  const policies = await loadServerPolicies(db, { tenantId: params.tenantId });
  const decision = await checkServerPolicy(
    policies,
    { transport: "streamable-http", url },
    { ownerLaunch: false },
  );
  if (decision.kind === "deny") throw new ModelError(policyRefusalError(decision).message);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (connection.apiKeySecret) {
    const key = await readSecretValue(db, { tenantId: params.tenantId, name: connection.apiKeySecret });
    if (key === undefined)
      throw new ModelError(`the secret "${connection.apiKeySecret}" that holds the API key is not set`);
    headers.authorization = `Bearer ${key}`;
  }
  const body = JSON.stringify({
    model: connection.model,
    messages: params.messages,
    ...(params.tools.length > 0 ? { tools: params.tools, tool_choice: "auto" } : {}),
    stream: false,
  });

  const timeout = AbortSignal.timeout(params.timeoutMs);
  const signal = AbortSignal.any([params.signal, timeout]);
  const pinned = createPinnedFetch(resolverWithinPolicy(policies));
  let text: string;
  let status: number;
  try {
    const response = await pinned.fetch(url, { method: "POST", headers, body, signal, redirect: "manual" });
    status = response.status;
    text = await readBounded(response, MAX_ANSWER_BYTES);
  } catch (error) {
    if (params.signal.aborted) throw error;
    if (timeout.aborted)
      throw new ModelError(
        `the model endpoint did not answer within ${Math.round(params.timeoutMs / 1000)} s`,
      );
    if (error instanceof ModelError) throw error;
    throw new ModelError(`the model endpoint could not be reached: ${describeNetworkError(error, url)}`);
  } finally {
    await pinned.close();
  }

  if (status === 401 || status === 403)
    throw new ModelError(`the model endpoint refused the API key (HTTP ${status}): ${excerpt(text)}`);
  if (status < 200 || status >= 300)
    throw new ModelError(`the model endpoint answered HTTP ${status}: ${excerpt(text)}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelError(`the model endpoint answered malformed JSON: ${excerpt(text)}`);
  }
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
    throw new ModelError(
      `the model endpoint's answer is not a chat completion (${issue?.message ?? "invalid"}${where})`,
    );
  }
  const message = parsed.data.choices[0]?.message;
  return {
    text: message?.content ?? null,
    toolCalls: (message?.tool_calls ?? []).map((call, i) => ({
      id: call.id ?? `call_${i}`,
      name: call.function.name,
      arguments: call.function.arguments ?? "{}",
    })),
    tokens: parsed.data.usage?.total_tokens ?? 0,
  };
}

async function readBounded(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ModelError(`the model endpoint's answer is over ${limit / (1024 * 1024)} MiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A bit of what the endpoint said, on one line: enough to recognise an error page. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (!line) return "(an empty body)";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
