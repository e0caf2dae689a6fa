import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { tenantPolicies } from "@/db/schema";
import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import type { Queryable } from "@/lib/db/client";
import { recordPolicyChange } from "@/lib/policy/policy-events";
import { parseOrThrow } from "@/lib/validation";

/**
 * The workspace's call limits (tenant_policies kind "limits"): calls per minute and calls in flight
 * for each principal and each server, and how many calls one principal may have waiting for an
 * approval. `null` is unlimited. The defaults apply to every principal (server); an override names
 * one by its name and sets only the fields it lists (a field left out inherits the default, `null`
 * lifts the limit for that one). Names, not ids: they are what an admin reads and types, and both
 * are unique in a workspace; a server's override follows its rename (followServerRename).
 */

/** The allowed ranges, said in every refusal: 0, negatives and absurd values are mistakes. */
export const LIMIT_RANGES = {
  callsPerMinute: { min: 1, max: 100_000 },
  concurrentCalls: { min: 1, max: 1_000 },
  pendingApprovals: { min: 1, max: 10_000 },
} as const;

type LimitField = keyof typeof LIMIT_RANGES;

const limit = (field: LimitField, what: string) => {
  const { min, max } = LIMIT_RANGES[field];
  const range = `${what} must be a whole number from ${min} to ${max.toLocaleString("en-US")}, or null for unlimited.`;
  return z
    .number({ error: range })
    .int({ error: range })
    .min(min, { error: range })
    .max(max, { error: range })
    .nullable();
};

const callsPerMinute = limit("callsPerMinute", "Calls per minute");
const concurrentCalls = limit("concurrentCalls", "Calls in flight");
const pendingApprovals = limit("pendingApprovals", "Calls waiting for approval");

const principalLimitsSchema = z.strictObject({
  callsPerMinute: callsPerMinute.default(null),
  concurrentCalls: concurrentCalls.default(null),
  pendingApprovals: pendingApprovals.default(null),
});
const serverLimitsSchema = z.strictObject({
  callsPerMinute: callsPerMinute.default(null),
  concurrentCalls: concurrentCalls.default(null),
});

/** An override: only the fields it names; the others inherit the workspace default. */
const principalOverrideSchema = z.strictObject({
  callsPerMinute: callsPerMinute.optional(),
  concurrentCalls: concurrentCalls.optional(),
  pendingApprovals: pendingApprovals.optional(),
});
const serverOverrideSchema = z.strictObject({
  callsPerMinute: callsPerMinute.optional(),
  concurrentCalls: concurrentCalls.optional(),
});

const nameSchema = z
  .string()
  .trim()
  .min(1, { error: "A name must not be empty." })
  .max(200, { error: "A name is limited to 200 characters." });

const overrides = <S extends z.ZodType>(schema: S, what: string) =>
  z
    .record(nameSchema, schema)
    .refine((o) => Object.keys(o).length <= 1000, { error: `At most 1000 ${what} overrides.` })
    .default({});

export const limitsPolicySchema = z.strictObject({
  /** every principal's limits unless overridden */
  principal: principalLimitsSchema.prefault({}),
  /** every server's limits unless overridden */
  server: serverLimitsSchema.prefault({}),
  principals: overrides(principalOverrideSchema, "principal"),
  servers: overrides(serverOverrideSchema, "server"),
});

export type LimitsPolicy = z.infer<typeof limitsPolicySchema>;
export type PrincipalLimits = z.infer<typeof principalLimitsSchema>;
export type ServerLimits = z.infer<typeof serverLimitsSchema>;

export const defaultLimitsPolicy = (): LimitsPolicy => limitsPolicySchema.parse({});

/** The limits that apply to one principal: its override over the workspace default. */
export function principalLimits(policy: LimitsPolicy, name: string): PrincipalLimits {
  return { ...policy.principal, ...(Object.hasOwn(policy.principals, name) ? policy.principals[name] : {}) };
}

/** The limits that apply to one server: its override over the workspace default. */
export function serverLimits(policy: LimitsPolicy, name: string): ServerLimits {
  return { ...policy.server, ...(Object.hasOwn(policy.servers, name) ? policy.servers[name] : {}) };
}

export async function getLimitsPolicy(db: Queryable, params: { tenantId: string }): Promise<LimitsPolicy> {
  const [row] = await db
    .select({ policy: tenantPolicies.policy })
    .from(tenantPolicies)
    .where(and(eq(tenantPolicies.tenantId, params.tenantId), eq(tenantPolicies.kind, "limits")));
  // Stored policies were validated on write; parsing again fills defaults added since.
  return row ? limitsPolicySchema.parse(row.policy) : defaultLimitsPolicy();
}

/** PUT semantics: fields left out take their defaults (unlimited). */
export async function putLimitsPolicy(
  db: Queryable,
  params: { tenantId: string; input: unknown; by: AuditActor },
): Promise<LimitsPolicy> {
  const policy = parseOrThrow(limitsPolicySchema, params.input, "The limits");
  await db
    .insert(tenantPolicies)
    .values({ tenantId: params.tenantId, kind: "limits", policy })
    .onConflictDoUpdate({
      target: [tenantPolicies.tenantId, tenantPolicies.kind],
      set: { policy, updatedAt: sql`now()` },
    });
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "policy.limits_changed",
    ...auditedBy(params.by),
    detail: describeLimits(policy),
  });
  await recordPolicyChange(db, { tenantId: params.tenantId, subject: "limits", by: params.by });
  return policy;
}

function describeLimits(policy: LimitsPolicy): string {
  const n = (value: number | null | undefined) => (value == null ? "unlimited" : String(value));
  return (
    `per principal ${n(policy.principal.callsPerMinute)}/min, ${n(policy.principal.concurrentCalls)} in flight, ` +
    `${n(policy.principal.pendingApprovals)} pending; per server ${n(policy.server.callsPerMinute)}/min, ` +
    `${n(policy.server.concurrentCalls)} in flight; ${Object.keys(policy.principals).length} principal and ` +
    `${Object.keys(policy.servers).length} server overrides`
  );
}

/**
 * A renamed server keeps its limits: its override moves to the new name (a principal cannot be
 * renamed). Nothing to do when it had none; an override already under the new name (left by a
 * deleted server of that name) is replaced.
 */
export async function followServerRename(
  db: Queryable,
  params: { tenantId: string; from: string; to: string; by: AuditActor },
): Promise<void> {
  const policy = await getLimitsPolicy(db, { tenantId: params.tenantId });
  if (params.from === params.to || !Object.hasOwn(policy.servers, params.from)) return;
  const { [params.from]: moved, ...others } = policy.servers;
  const servers = { ...others, [params.to]: moved };
  await db
    .update(tenantPolicies)
    .set({ policy: { ...policy, servers }, updatedAt: sql`now()` })
    .where(and(eq(tenantPolicies.tenantId, params.tenantId), eq(tenantPolicies.kind, "limits")));
  await recordPolicyChange(db, { tenantId: params.tenantId, subject: "limits", by: params.by });
}
