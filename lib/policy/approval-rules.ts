import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { effectClasses, tenantPolicies } from "@/db/schema";
import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import type { Queryable } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/validation";
import { recordPolicyChange } from "./policy-events";

/**
 * The workspace's approval rules (tenant_policies kind "approvals") and the gate that applies
 * them to one call. Per-tool overrides live on the tool row (`tools.approval_rule`).
 */

export const approvalPolicySchema = z.strictObject({
  requireApprovalFor: z
    .array(z.enum(effectClasses, { error: "Effects are read, write, external-write and destructive." }))
    .default(["external-write", "destructive"])
    .transform((effects) => effectClasses.filter((effect) => effects.includes(effect))),
  // On unless a workspace turns it off; workspaces older than this default keep theirs off
  // (migration 0006 wrote their setting down).
  forbidSelfApproval: z.boolean().default(true),
  expirySeconds: z
    .number()
    .int()
    .min(1, { error: "Must be at least 1 second." })
    .max(604_800, { error: "Must be at most 7 days (604800 seconds)." })
    .default(600),
});
export type ApprovalPolicy = z.infer<typeof approvalPolicySchema>;

export const defaultApprovalPolicy = (): ApprovalPolicy => approvalPolicySchema.parse({});

export async function getApprovalPolicy(
  db: Queryable,
  params: { tenantId: string },
): Promise<ApprovalPolicy> {
  const [row] = await db
    .select({ policy: tenantPolicies.policy })
    .from(tenantPolicies)
    .where(and(eq(tenantPolicies.tenantId, params.tenantId), eq(tenantPolicies.kind, "approvals")));
  // Stored policies were validated on write; parsing again fills defaults added since.
  return row ? approvalPolicySchema.parse(row.policy) : defaultApprovalPolicy();
}

/** PUT semantics: fields left out take their defaults. */
export async function putApprovalPolicy(
  db: Queryable,
  params: { tenantId: string; input: unknown; by: AuditActor },
): Promise<ApprovalPolicy> {
  const policy = parseOrThrow(approvalPolicySchema, params.input, "The approval policy");
  await db
    .insert(tenantPolicies)
    .values({ tenantId: params.tenantId, kind: "approvals", policy })
    .onConflictDoUpdate({
      target: [tenantPolicies.tenantId, tenantPolicies.kind],
      set: { policy, updatedAt: sql`now()` },
    });
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "policy.approvals_changed",
    ...auditedBy(params.by),
    detail: `approval for ${policy.requireApprovalFor.join(", ") || "nothing"}; self-approval ${policy.forbidSelfApproval ? "forbidden" : "allowed"}; expiry ${policy.expirySeconds}s`,
  });
  await recordPolicyChange(db, { tenantId: params.tenantId, subject: "approval_policy", by: params.by });
  return policy;
}
