import "server-only";
import { z } from "zod";
import type { CallDto } from "@/lib/calls/call-view";
import { executeCatalogRead } from "@/lib/calls/execute-catalog-read";
import type { Requester } from "@/lib/calls/requester";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import {
  findInspectServer,
  promptArgumentsOf,
  requireListedPrompt,
  requireListedResource,
} from "./catalog-target";

/**
 * An operator reading a resource or getting a prompt from the Playground: the gateway's governed
 * path (executeCatalogRead — authorized, gated by the server's "resource reads need approval",
 * recorded as a call, scrubbed and bounded), asked only of what the server's catalog lists.
 */

const serverIdSchema = z.string().trim().min(1, "Choose a server.").max(100);

export const readResourceInputSchema = z.strictObject({
  serverId: serverIdSchema,
  uri: z.string().trim().min(1, "Enter a resource URI.").max(4096, "The URI is longer than 4096 characters."),
});

export const getPromptInputSchema = z.strictObject({
  serverId: serverIdSchema,
  name: z.string().min(1, "Choose a prompt.").max(500),
  // MCP prompt arguments are strings (PromptArgument has no type).
  arguments: z
    .record(z.string().max(200), z.string().max(65_536, "A value is longer than 64 KiB."))
    .refine((args) => Object.keys(args).length <= 100, "At most 100 arguments.")
    .default({}),
});

type Common = { tenantId: string; requester: Requester; waitMs: number };

export async function readResourceAsOperator(
  db: Database,
  params: Common & { input: unknown },
): Promise<CallDto> {
  const input = parseOrThrow(readResourceInputSchema, params.input, "The resource read");
  const server = await findInspectServer(db, { tenantId: params.tenantId, serverId: input.serverId });
  await requireListedResource(db, { tenantId: params.tenantId, server, uri: input.uri });
  return executeCatalogRead(db, {
    tenantId: params.tenantId,
    requester: params.requester,
    kind: "resource_read",
    serverId: server.id,
    target: input.uri,
    waitMs: params.waitMs,
  });
}

export async function getPromptAsOperator(
  db: Database,
  params: Common & { input: unknown },
): Promise<CallDto> {
  const input = parseOrThrow(getPromptInputSchema, params.input, "The prompt");
  const server = await findInspectServer(db, { tenantId: params.tenantId, serverId: input.serverId });
  const prompt = await requireListedPrompt(db, { tenantId: params.tenantId, server, name: input.name });
  // Empty fields are not sent: an optional argument left blank is absent, not "".
  const args = Object.fromEntries(Object.entries(input.arguments).filter(([, value]) => value !== ""));
  checkPromptArguments(promptArgumentsOf(prompt), args);
  return executeCatalogRead(db, {
    tenantId: params.tenantId,
    requester: params.requester,
    kind: "prompt_get",
    serverId: server.id,
    target: input.name,
    arguments: args,
    waitMs: params.waitMs,
  });
}

/** Required arguments present, no argument the prompt does not declare: said per field. */
function checkPromptArguments(declared: { name: string; required: boolean }[], args: Record<string, string>) {
  const fieldErrors: Record<string, string[]> = {};
  for (const arg of declared) {
    if (arg.required && args[arg.name] === undefined) fieldErrors[`arguments.${arg.name}`] = ["Required."];
  }
  const names = new Set(declared.map((arg) => arg.name));
  for (const name of Object.keys(args)) {
    if (!names.has(name)) fieldErrors[`arguments.${name}`] = ["The prompt declares no such argument."];
  }
  const fields = Object.keys(fieldErrors);
  if (fields.length === 0) return;
  throw new AppError(
    "validation",
    `The prompt's arguments have ${fields.length === 1 ? "a problem" : `${fields.length} problems`}: ${fields
      .map((field) => `${field.slice("arguments.".length)} — ${fieldErrors[field]?.[0]}`)
      .join(" ")}`,
    { fieldErrors },
  );
}
