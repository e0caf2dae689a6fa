import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { apiKeys, grants, principals } from "@/db/schema";
import { type ApiKeyDto, createGatewayKey, revokeApiKey } from "@/lib/auth/api-keys";
import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { replaceGrantsSchema } from "@/lib/policy/grants";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { parseOrThrow } from "@/lib/validation";
import { getPrincipalRowOrThrow, listGrantPatterns, touchPrincipal } from "./principals";

/** A principal's keys and grants: what lets an agent in, and what it may call once in. */

type PrincipalRef = { tenantId: string; principalId: string };

export const createPrincipalKeySchema = z.strictObject({
  name: z.string({ error: "name is required." }).trim().min(1).max(100),
});

/**
 * A key for the principal, shown once. Always gateway-only: an agent's key must not manage the
 * workspace, or it could grant itself tools and approve its own calls. It is the agent's, not its
 * maker's rights, so it keeps working when its maker leaves (lib/auth/key-standing.ts).
 */
export async function createPrincipalKey(
  db: Database,
  params: PrincipalRef & { input: unknown; by: AuditActor },
): Promise<{ key: string; apiKey: ApiKeyDto }> {
  const { name } = parseOrThrow(createPrincipalKeySchema, params.input, "The API key");
  const principal = await getPrincipalRowOrThrow(db, { tenantId: params.tenantId, id: params.principalId });
  const created = await createGatewayKey(db, {
    tenantId: params.tenantId,
    principalId: principal.id,
    name,
    by: params.by,
  });
  return { ...created, apiKey: { ...created.apiKey, principalName: principal.name } };
}

export async function revokePrincipalKey(
  db: Database,
  params: PrincipalRef & { keyId: string; by: AuditActor },
): Promise<void> {
  const [key] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.tenantId, params.tenantId),
        eq(apiKeys.principalId, params.principalId),
        eq(apiKeys.id, params.keyId),
      ),
    );
  if (!key) throw new AppError("not_found", "This principal has no API key with that id.");
  await revokeApiKey(db, { tenantId: params.tenantId, id: key.id, by: params.by });
}

/** Replaces the whole set at once, so what an admin saved is exactly what is enforced. */
export async function replaceGrants(
  db: Database,
  params: PrincipalRef & { input: unknown; by: AuditActor },
): Promise<string[]> {
  const { patterns } = parseOrThrow(replaceGrantsSchema, params.input, "The grants");
  const saved = await db.transaction(async (tx) => {
    // Two admins saving at once: one after the other, or both inserts would collide.
    const [principal] = await tx
      .select({ id: principals.id })
      .from(principals)
      .where(and(eq(principals.tenantId, params.tenantId), eq(principals.id, params.principalId)))
      .for("update");
    if (!principal) throw new AppError("not_found", "There is no principal with that id in this workspace.");
    await tx
      .delete(grants)
      .where(and(eq(grants.tenantId, params.tenantId), eq(grants.principalId, params.principalId)));
    if (patterns.length > 0) {
      await tx.insert(grants).values(
        patterns.map((toolPattern) => ({
          tenantId: params.tenantId,
          principalId: params.principalId,
          toolPattern,
        })),
      );
    }
    await touchPrincipal(tx, { tenantId: params.tenantId, id: params.principalId });
    const saved = await listGrantPatterns(tx, params);
    await recordAudit(tx, {
      tenantId: params.tenantId,
      action: "principal.grants_changed",
      ...auditedBy(params.by),
      subject: params.principalId,
      detail: saved.length > 0 ? saved.join(", ") : "no grants",
    });
    return saved;
  });
  // After the commit, not inside it: recorded outside a transaction, the event reaches this
  // process's caches before this returns (inside one it would wait for the relay).
  await recordPolicyChange(db, {
    tenantId: params.tenantId,
    subject: "grants",
    subjectId: params.principalId,
    by: params.by,
  });
  return saved;
}
