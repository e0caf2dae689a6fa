import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { z } from "zod";
import {
  type ApiKeyScope,
  apiKeys,
  instanceOwners,
  memberships,
  principals,
  users,
  workspaceKeyScopes,
} from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/observability/log";
import { API_KEYS, decisionCache } from "@/lib/policy/decision-cache";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { parseOrThrow } from "@/lib/validation";
import { type AuditActor, auditedBy, recordAudit, userIdOf } from "./audit";
import { standingOf } from "./key-standing";

const KEY_PREFIX = "sb_";

export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1, { error: "Give the key a name, e.g. ci-deploy." }).max(100),
  scopes: z
    .array(
      z.enum(workspaceKeyScopes, {
        // A workspace key with `gateway` would be refused by /mcp and /calls: say where it belongs.
        error: (issue) =>
          issue.input === "gateway"
            ? "The gateway scope belongs to a principal's key: create a principal (an agent) and give it a key (POST /api/v1/principals/{id}/keys)."
            : "Scopes are admin and owner.",
      }),
    )
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
  /** the person it acts for (name); null for the machine's bootstrap key or a deleted account */
  creatorName: string | null;
  /** why it does nothing now although not revoked ("creator Ada was removed"); null when active */
  inactiveReason: string | null;
};

export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");
const INVALID_KEY = "The API key is not valid: no active key matches it. Check that it was copied whole.";
const generateKey = () => `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
const prefixOf = (key: string) => key.slice(0, KEY_PREFIX.length + 6);

/** Creates a workspace key (not a principal's) and returns its value once; only the hash is stored. */
export async function createApiKey(
  db: Database,
  params: {
    tenantId: string;
    input: unknown;
    by: AuditActor;
    /** whether the creator holds instance authority: only then may a key have the owner scope */
    instanceOwner?: boolean;
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
  return insertApiKey(db, { ...params, name: input.name, scopes: input.scopes, principalId: null });
}

/** A principal's key: gateway-only, whoever makes it (lib/principals/principal-access). */
export function createGatewayKey(
  db: Database,
  params: { tenantId: string; principalId: string; name: string; by: AuditActor },
): Promise<{ key: string; apiKey: ApiKeyDto }> {
  return insertApiKey(db, { ...params, scopes: ["gateway"] });
}

async function insertApiKey(
  db: Database,
  params: {
    tenantId: string;
    principalId: string | null;
    name: string;
    scopes: ApiKeyScope[];
    by: AuditActor;
    value?: string;
  },
): Promise<{ key: string; apiKey: ApiKeyDto }> {
  const key = params.value ?? generateKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      tenantId: params.tenantId,
      principalId: params.principalId,
      name: params.name,
      prefix: prefixOf(key),
      keyHash: hashApiKey(key),
      scopes: params.scopes,
      // The person it acts for: a key made by a key is still its creator person's.
      createdBy: userIdOf(params.by),
    })
    .returning();
  if (!row) throw new AppError("internal", "The key could not be created.");
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "api_key.created",
    ...auditedBy(params.by),
    subject: row.id,
    detail: `${params.name} (${params.scopes.join(", ")})`,
  });
  const [dto] = await listApiKeys(db, { tenantId: params.tenantId, id: row.id });
  if (!dto) throw new AppError("internal", "The key could not be created.");
  return { key, apiKey: dto };
}

/** The workspace's keys, newest first, each with whether its creator's standing still lets it act. */
export async function listApiKeys(
  db: Queryable,
  params: { tenantId: string; id?: string; principalId?: string },
): Promise<ApiKeyDto[]> {
  const rows = await db
    .select({
      key: apiKeys,
      principalName: principals.name,
      creatorName: users.name,
      creatorRole: memberships.role,
      creatorOwner: instanceOwners.userId,
    })
    .from(apiKeys)
    .leftJoin(principals, eq(principals.id, apiKeys.principalId))
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .leftJoin(
      memberships,
      and(eq(memberships.userId, apiKeys.createdBy), eq(memberships.tenantId, apiKeys.tenantId)),
    )
    .leftJoin(instanceOwners, eq(instanceOwners.userId, apiKeys.createdBy))
    .where(
      and(
        eq(apiKeys.tenantId, params.tenantId),
        params.id ? eq(apiKeys.id, params.id) : undefined,
        params.principalId ? eq(apiKeys.principalId, params.principalId) : undefined,
      ),
    )
    .orderBy(desc(apiKeys.createdAt));
  return rows.map((row) => {
    const standing = standingOf({
      ...row.key,
      creatorName: row.creatorName,
      creatorRole: row.creatorRole,
      creatorIsOwner: row.creatorOwner !== null,
    });
    return {
      ...toDto(row.key, row.principalName),
      creatorName: row.creatorName,
      inactiveReason: standing.kind === "inactive" ? standing.reason : null,
    };
  });
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
  name: string;
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
  // Only a value that is not ours at all is told about the prefix: `sb_bogus` has it, so hearing
  // "keys start with sb_" would send its owner looking in the wrong place. Any other value that is
  // not an active key gets the lookup's one answer, however short or odd (a bootstrap key from the
  // environment need not look like a generated one), so it says nothing of what exists anywhere.
  if (!value.startsWith(KEY_PREFIX)) {
    throw new AppError("unauthenticated", "That is not a Switchboard API key (keys start with sb_).");
  }
  const hash = hashApiKey(value);
  const key = await decisionCache.get(API_KEYS, hash, () => findActiveKey(db, hash));
  recordKeyUse(db, key.id);
  return key;
}

async function findActiveKey(db: Database, hash: string): Promise<VerifiedKey> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash));
  if (!row) throw new AppError("unauthenticated", INVALID_KEY);
  if (row.revokedAt) throw new AppError("unauthenticated", "The API key has been revoked.");
  lastUseRecorded.set(row.id, row.lastUsedAt?.getTime() ?? 0);
  return {
    id: row.id,
    name: row.name,
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
      log.error({ err: error, keyId }, `recording the use of API key ${keyId} failed`);
    });
}

function toDto(
  row: typeof apiKeys.$inferSelect,
  principalName: string | null,
): Omit<ApiKeyDto, "creatorName" | "inactiveReason"> {
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
