import "server-only";
import { createHmac } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { secrets } from "@/db/schema";
import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { whenMissing } from "@/lib/validation";
import { decryptSecret, encryptSecret, loadSecretKey } from "./encryption";

export const secretNameSchema = z
  .string(whenMissing("A secret name is required."))
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, {
    error: "Secret names use letters, digits, dots, dashes and underscores (at most 100 characters).",
  });

export const putSecretSchema = z.strictObject(
  {
    value: z
      .string(whenMissing("value is required."))
      .min(1, { error: "value must not be empty." })
      .max(65_536, { error: "value is longer than 64 KiB." }),
  },
  { error: (issue) => (issue.code === "invalid_type" ? 'Send a JSON object: {"value": "…"}.' : undefined) },
);

export type SecretSummary = { name: string; createdAt: string; updatedAt: string };

let cachedKey: Buffer | undefined;
function secretKey(): Buffer {
  if (!cachedKey) {
    const env = readEnv();
    cachedKey = loadSecretKey(env);
  }
  return cachedKey;
}

const aad = (tenantId: string, name: string) => `${tenantId}/${name}`;

/**
 * A key for one purpose (`purpose` names it), derived from the secret key every replica shares:
 * what one replica signs for another (lib/gateway/http/hand-off) without reusing the encryption key.
 */
export const purposeKey = (purpose: string): Buffer =>
  createHmac("sha256", secretKey()).update(purpose).digest();

/**
 * Other write-only values under the same key (OAuth tokens and client credentials): the
 * associated data names their owner and purpose, so a ciphertext copied to another row won't open.
 */
export const sealValue = (plaintext: string, associatedData: string): string =>
  encryptSecret(secretKey(), plaintext, associatedData);
export const openValue = (ciphertext: string, associatedData: string): string =>
  decryptSecret(secretKey(), ciphertext, associatedData);

/** Writes (or replaces) a secret. Returns only its name and times: a value never comes back out. */
export async function putSecret(
  db: Database,
  params: { tenantId: string; name: string; value: string; by: AuditActor },
): Promise<SecretSummary & { created: boolean }> {
  const ciphertext = encryptSecret(secretKey(), params.value, aad(params.tenantId, params.name));
  const [row] = await db
    .insert(secrets)
    .values({ tenantId: params.tenantId, name: params.name, ciphertext })
    .onConflictDoUpdate({
      target: [secrets.tenantId, secrets.name],
      set: { ciphertext, updatedAt: sql`now()` },
    })
    .returning({
      name: secrets.name,
      createdAt: secrets.createdAt,
      updatedAt: secrets.updatedAt,
      // xmax = 0 only for a freshly inserted row
      created: sql<boolean>`(xmax = 0)`,
    });
  if (!row) throw new AppError("internal", "The secret could not be stored.");
  // The name only: a value never reaches the audit log or an event.
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "secret.set",
    ...auditedBy(params.by),
    subject: row.name,
    detail: row.created ? "created" : "replaced",
  });
  await recordPolicyChange(db, {
    tenantId: params.tenantId,
    subject: "secret",
    subjectId: row.name,
    by: params.by,
  });
  return {
    name: row.name,
    created: row.created,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listSecrets(db: Database, params: { tenantId: string }): Promise<SecretSummary[]> {
  const rows = await db
    .select({ name: secrets.name, createdAt: secrets.createdAt, updatedAt: secrets.updatedAt })
    .from(secrets)
    .where(eq(secrets.tenantId, params.tenantId))
    .orderBy(secrets.name);
  return rows.map((r) => ({
    name: r.name,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** Which of these names are set in the tenant (for "set/unset" displays). */
export async function findSetSecretNames(
  db: Database,
  params: { tenantId: string; names: string[] },
): Promise<Set<string>> {
  if (params.names.length === 0) return new Set();
  const rows = await db
    .select({ name: secrets.name })
    .from(secrets)
    .where(and(eq(secrets.tenantId, params.tenantId), inArray(secrets.name, params.names)));
  return new Set(rows.map((r) => r.name));
}

/** Server side only, at connect time. Never return this from a route or pass it to a page. */
export async function readSecretValue(
  db: Database,
  params: { tenantId: string; name: string },
): Promise<string | undefined> {
  const [row] = await db
    .select({ ciphertext: secrets.ciphertext })
    .from(secrets)
    .where(and(eq(secrets.tenantId, params.tenantId), eq(secrets.name, params.name)));
  return row ? decryptSecret(secretKey(), row.ciphertext, aad(params.tenantId, params.name)) : undefined;
}

/** Server side only: every secret value of the tenant, in one read (for scrubbing). */
export async function readSecretValues(db: Database, params: { tenantId: string }): Promise<string[]> {
  const rows = await db
    .select({ name: secrets.name, ciphertext: secrets.ciphertext })
    .from(secrets)
    .where(eq(secrets.tenantId, params.tenantId));
  return rows.map((row) => decryptSecret(secretKey(), row.ciphertext, aad(params.tenantId, row.name)));
}

export async function deleteSecret(
  db: Database,
  params: { tenantId: string; name: string; by: AuditActor },
): Promise<void> {
  const deleted = await db
    .delete(secrets)
    .where(and(eq(secrets.tenantId, params.tenantId), eq(secrets.name, params.name)))
    .returning({ name: secrets.name });
  if (deleted.length === 0) throw new AppError("not_found", `There is no secret named "${params.name}".`);
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "secret.deleted",
    ...auditedBy(params.by),
    subject: params.name,
  });
  await recordPolicyChange(db, {
    tenantId: params.tenantId,
    subject: "secret",
    subjectId: params.name,
    by: params.by,
  });
}
