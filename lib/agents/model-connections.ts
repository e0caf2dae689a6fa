import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { modelConnections } from "@/db/schema";
import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import type { Database, Queryable } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { findSetSecretNames, secretNameSchema } from "@/lib/secrets/secrets";
import { assertServerAllowed } from "@/lib/servers/server-policy-check";
import { parseOrThrow, whenMissing } from "@/lib/validation";
import type { ModelConnectionDto } from "./types";

/**
 * A workspace's model endpoints (admins): an OpenAI-compatible chat-completions API — OpenAI,
 * Azure OpenAI, OpenRouter, Ollama, vLLM, LM Studio. The URL is judged by the egress policy as a
 * server's is, here and again, with the address pinned, at every request (model-client). The API
 * key is a workspace secret's name: its value is read at request time and never stored here.
 */

const baseUrlSchema = z
  .string(whenMissing("A base URL is required."))
  .trim()
  .max(2048, { error: "The base URL is limited to 2048 characters." })
  .refine((value) => URL.canParse(value), {
    error: "Enter the API's base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1.",
  })
  .refine((value) => /^https?:$/.test(new URL(value).protocol), {
    error: "The base URL must start with https:// or http://.",
  })
  .refine((value) => !new URL(value).username && !new URL(value).password, {
    error: "Put no user name or password in the URL: give the key as a secret (apiKeySecret).",
  })
  .transform((value) => value.replace(/\/+$/, ""));

export const createModelConnectionSchema = z.strictObject({
  name: z
    .string(whenMissing("A name is required."))
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, {
      error: "A name is 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
    }),
  baseUrl: baseUrlSchema,
  model: z
    .string(whenMissing("A model is required, e.g. gpt-4o-mini or llama3.1."))
    .trim()
    .min(1, { error: "A model is required, e.g. gpt-4o-mini or llama3.1." })
    .max(200, { error: "A model name is limited to 200 characters." }),
  apiKeySecret: secretNameSchema.nullable().default(null),
});

const toDto = (row: typeof modelConnections.$inferSelect): ModelConnectionDto => ({
  id: row.id,
  name: row.name,
  baseUrl: row.baseUrl,
  model: row.model,
  apiKeySecret: row.apiKeySecret,
  createdAt: row.createdAt.toISOString(),
});

export async function listModelConnections(
  db: Queryable,
  params: { tenantId: string },
): Promise<ModelConnectionDto[]> {
  const rows = await db
    .select()
    .from(modelConnections)
    .where(eq(modelConnections.tenantId, params.tenantId))
    .orderBy(asc(modelConnections.name));
  return rows.map(toDto);
}

/** By id or by name, as the API and the CLI name one. */
export async function findModelConnection(
  db: Queryable,
  params: { tenantId: string; ref: string },
): Promise<ModelConnectionDto> {
  const rows = await db.select().from(modelConnections).where(eq(modelConnections.tenantId, params.tenantId));
  const row = rows.find((r) => r.id === params.ref) ?? rows.find((r) => r.name === params.ref);
  if (!row) throw new AppError("not_found", `No model connection "${params.ref}" in this workspace.`);
  return toDto(row);
}

export async function createModelConnection(
  db: Database,
  params: { tenantId: string; input: unknown; by: AuditActor },
): Promise<ModelConnectionDto> {
  const input = parseOrThrow(createModelConnectionSchema, params.input, "The model connection");
  await assertServerAllowed(db, {
    tenantId: params.tenantId,
    config: { transport: "streamable-http", url: input.baseUrl },
    ownerLaunch: false,
  });
  if (input.apiKeySecret) {
    const set = await findSetSecretNames(db, { tenantId: params.tenantId, names: [input.apiKeySecret] });
    if (!set.has(input.apiKeySecret))
      throw new AppError(
        "validation",
        `No secret named "${input.apiKeySecret}" in this workspace: set it first (Settings → Secrets).`,
        { fieldErrors: { apiKeySecret: [`No secret named "${input.apiKeySecret}".`] } },
      );
  }
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(modelConnections)
        .values({ tenantId: params.tenantId, ...input })
        .returning();
      if (!row) throw new AppError("internal", "The model connection could not be stored.");
      await recordAudit(tx, {
        tenantId: params.tenantId,
        action: "model_connection.created",
        ...auditedBy(params.by),
        subject: row.name,
        detail: `${row.model} at ${row.baseUrl}${row.apiKeySecret ? ` (key: secret ${row.apiKeySecret})` : ""}`,
      });
      return toDto(row);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("conflict", `A model connection named "${input.name}" already exists.`);
    throw error;
  }
}

export async function deleteModelConnection(
  db: Database,
  params: { tenantId: string; id: string; by: AuditActor },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(modelConnections)
      .where(and(eq(modelConnections.tenantId, params.tenantId), eq(modelConnections.id, params.id)))
      .returning();
    if (!row) throw new AppError("not_found", "No model connection with this id in this workspace.");
    await recordAudit(tx, {
      tenantId: params.tenantId,
      action: "model_connection.deleted",
      ...auditedBy(params.by),
      subject: row.name,
    });
  });
}
