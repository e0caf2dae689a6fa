import "server-only";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { authorizeCatalogRead, loadGrants } from "@/lib/calls/call-decision";
import type { Requester } from "@/lib/calls/requester";
import type { Database } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { requireServerRuntime } from "@/lib/runtime/server-runtime";
import { parseOrThrow } from "@/lib/validation";
import { findInspectServer, requireListedPrompt, requireListedTemplate } from "./catalog-target";
import type { CompletionDto } from "./types";

/**
 * completion/complete for a prompt's or resource template's argument, asked by an operator in the
 * Playground on the server's pooled connection. Not a call (the gateway does not record them
 * either), but held to the same rules as a read: the operator may read the server's catalog
 * (authorizeCatalogRead), the server is enabled, and the prompt or template is one it lists. What
 * comes back is a downstream server's word: only strings, at most 100, each cut to 500 characters.
 */

const MAX_VALUES = 100;
const MAX_VALUE_CHARS = 500;
/** A suggestion is worth little after this long; the operator is typing. */
const COMPLETION_TIMEOUT_MS = 10_000;

const text = (what: string, max: number) => z.string().min(1, `${what} is missing.`).max(max);

export const completeInputSchema = z.strictObject({
  serverId: text("The server", 100),
  ref: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("ref/prompt"), name: text("The prompt", 500) }),
    z.strictObject({ type: z.literal("ref/resource"), uri: text("The resource template", 4096) }),
  ]),
  argument: z.strictObject({ name: text("The argument's name", 200), value: z.string().max(1_000) }),
  /** the other arguments filled in so far: a server may narrow its suggestions by them */
  context: z.record(z.string().max(200), z.string().max(1_000)).optional(),
});

export async function completeArgument(
  db: Database,
  params: { tenantId: string; requester: Requester; input: unknown },
): Promise<CompletionDto> {
  const input = parseOrThrow(completeInputSchema, params.input, "The completion request");
  const { tenantId } = params;
  const server = await findInspectServer(db, { tenantId, serverId: input.serverId });
  const grants = await loadGrants(db, { tenantId, requester: params.requester });
  const decision = authorizeCatalogRead(params.requester, grants, server.name);
  if (decision.kind === "deny") throw new AppError("forbidden", decision.reason);
  if (!server.enabled) throw new AppError("conflict", `The server "${server.name}" is disabled.`);
  if (input.ref.type === "ref/prompt") {
    await requireListedPrompt(db, { tenantId, server, name: input.ref.name });
  } else {
    await requireListedTemplate(db, { tenantId, server, uriTemplate: input.ref.uri });
  }

  const client = await (await requireServerRuntime()).pool.getClient(server.id);
  if (!client.getServerCapabilities()?.completions) return { values: [], hasMore: false, isOffered: false };
  try {
    const { completion } = await client.complete(
      {
        ref: input.ref,
        argument: input.argument,
        ...(input.context ? { context: { arguments: input.context } } : {}),
      },
      { timeout: Math.min(server.callTimeoutMs, COMPLETION_TIMEOUT_MS) },
    );
    const values = completion.values
      .filter((value): value is string => typeof value === "string")
      .slice(0, MAX_VALUES)
      .map((value) => value.slice(0, MAX_VALUE_CHARS));
    return { values, hasMore: completion.hasMore === true, isOffered: true };
  } catch (error) {
    if (isAppError(error)) throw error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      throw new AppError("timeout", `${server.name} did not suggest anything in time.`);
    }
    const message = error instanceof McpError ? error.message : String((error as Error)?.message ?? error);
    throw new AppError("upstream_error", `${server.name} could not complete: ${message.slice(0, 300)}`);
  }
}
