import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { z } from "zod";
import { type ApiKeyScope, apiKeyScopes, apiKeys, principals } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { API_KEYS, decisionCache } from "@/lib/policy/decision-cache";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { parseOrThrow } from "@/lib/validation";
import { type AuditActor, auditedBy, recordAudit, userIdOf } from "./audit";

const KEY_PREFIX = "sb_";

export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1, { error: "Give the key a name, e.g. ci-deploy." }).max(100),
  scopes: z
    .array(z.enum(apiKeyScopes, { error: "Scopes are admin, gateway and owner." }))
    .min(1, { error: "Pick at least one scope." })
    .transform((s) => [...new Set(s)]),
});

export type ApiKeyDto = {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  /** an agent's key: the principal it belongs to */
  principalId: string | null;
  principalName: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");
const generateKey = () => `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
const prefixOf = (key: string) => key.slice(0, KEY_PREFIX.length + 6);

/** Creates a key and returns its value once; only the hash is stored. */
export async function createApiKey(
  db: Database,
  params: {
    tenantId: string;
    input: unknown;
    by: AuditActor;
    /** whether the creator holds instance authority: only then may a key have the owner scope */
    instanceOwner?: boolean;
    principalId?: string;
    value?: string;
  },
): Promise<{ key: string; apiKey: ApiKeyDto }> {
  const input = parseOrThrow(createApiKeySchema, params.input, "The API key");
  // An owner key acts as an owner while the person who made it is one; so a person makes it (the
  // bootstrap key, made by whoever configured the machine, is the one exception: `by` is null).
  if (input.scopes.includes("owner") && !(params.instanceOwner && params.by?.kind !== "api_key")) {
    throw new AppError(
      "forbidden",
      params.instanceOwner
        ? "A key with the owner scope is created by a signed-in instance owner (it stops working when they stop being one), not by another key."
        : "Only an instance owner can create a key with the owner scope.",
      { fieldErrors: { scopes: ["The owner scope needs an instance owner, signed in."] } },
    );
  }
  const key = params.value ?? generateKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      tenantId: params.tenantId,
      principalId: params.principalId ?? null,
      name: input.name,
      prefix: prefixOf(key),
      keyHash: hashApiKey(key),
      scopes: input.scopes,
      createdBy: userIdOf(params.by),
    })
    .returning();
  if (!row) throw new AppError("internal", "The key could not be created.");
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "api_key.created",
    ...auditedBy(params.by),
    subject: row.id,
    detail: `${input.name} (${input.scopes.join(", ")})`,
  });
  return { key, apiKey: toDto(row) };
}

export async function listApiKeys(db: Database, params: { tenantId: string }): Promise<ApiKeyDto[]> {
  const rows = await db
    .select({ key: apiKeys, principalName: principals.name })
    .from(apiKeys)
    .leftJoin(principals, eq(principals.id, apiKeys.principalId))
    .where(eq(apiKeys.tenantId, params.tenantId))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map((row) => toDto(row.key, row.principalName));
}

export async function revokeApiKey(
  db: Database,
  params: { tenantId: string; id: string; by: AuditActor },
): Promise<void> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.tenantId, params.tenantId), eq(apiKeys.id, params.id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name });
  if (!row) throw new AppError("not_found", "There is no active API key with that id in this workspace.");
  await recordPolicyChange(db, { tenantId: params.tenantId, subject: "api_key", subjectId: row.id });
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "api_key.revoked",
    ...auditedBy(params.by),
    subject: row.id,
    detail: row.name,
  });
}

const USE_RECORD_INTERVAL_MS = 60_000;

export type VerifiedKey = {
  id: string;
  tenantId: string;
  scopes: ApiKeyScope[];
  principalId: string | null;
  createdBy: string | null;
};

/**
 * The key behind a bearer value, or an `unauthenticated` error that says what is wrong. Answers
 * are kept per process (decision-cache) until a key is revoked or a principal deleted anywhere;
 * refusals are not kept, so a key created a moment ago works at once.
 */
export async function verifyApiKey(db: Database, value: string): Promise<VerifiedKey> {
  if (!value.startsWith(KEY_PREFIX) || value.length < 20) {
    throw new AppError("unauthenticated", "That is not a Switchboard API key (keys start with sb_).");
  }
  const hash = hashApiKey(value);
  const key = await decisionCache.get(API_KEYS, hash, () => findActiveKey(db, hash));
  recordKeyUse(db, key.id);
  return key;
}

async function findActiveKey(db: Database, hash: string): Promise<VerifiedKey> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash));
  if (!row) throw new AppError("unauthenticated", "The API key is not valid.");
  if (row.revokedAt) throw new AppError("unauthenticated", "The API key has been revoked.");
  lastUseRecorded.set(row.id, row.lastUsedAt?.getTime() ?? 0);
  return {
    id: row.id,
    tenantId: row.tenantId,
    scopes: row.scopes,
    principalId: row.principalId,
    createdBy: row.createdBy,
  };
}

/** keyId → when this process last knew its use was recorded. */
const lastUseRecorded = new Map<string, number>();

/**
 * Records use at most about once a minute per key, off the request path: a busy key does not
 * write on every request, and "last used" is a hint for operators, not a guarantee.
 */
function recordKeyUse(db: Database, keyId: string): void {
  const now = Date.now();
  if (now - (lastUseRecorded.get(keyId) ?? 0) < USE_RECORD_INTERVAL_MS) return;
  lastUseRecorded.set(keyId, now);
  const aMinuteAgo = new Date(now - USE_RECORD_INTERVAL_MS);
  db.update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, aMinuteAgo))))
    .catch((error: unknown) => {
      console.error(`[switchboard] recording the use of API key ${keyId} failed`, (error as Error).message);
    });
}

function toDto(row: typeof apiKeys.$inferSelect, principalName: string | null = null): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    principalId: row.principalId,
    principalName,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
