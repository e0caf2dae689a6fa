import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { type EffectClass, effectClasses, tenantPolicies } from "@/db/schema";
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
  forbidSelfApproval: z.boolean().default(false),
  expirySeconds: z
    .number()
    .int()
    .min(1, { error: "Must be at least 1 second." })
    .max(604_800, { error: "Must be at most 7 days (604800 seconds)." })
    .default(600),
});
export type ApprovalPolicy = z.infer<typeof approvalPolicySchema>;

export const approvalRules = ["by-effect", "always", "never"] as const;
export type ApprovalRule = (typeof approvalRules)[number];

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
  params: { tenantId: string; input: unknown },
): Promise<ApprovalPolicy> {
  const policy = parseOrThrow(approvalPolicySchema, params.input, "The approval policy");
  await db
    .insert(tenantPolicies)
    .values({ tenantId: params.tenantId, kind: "approvals", policy })
    .onConflictDoUpdate({
      target: [tenantPolicies.tenantId, tenantPolicies.kind],
      set: { policy, updatedAt: sql`now()` },
    });
  await recordPolicyChange(db, { tenantId: params.tenantId, subject: "approval_policy" });
  return policy;
}

export type GateDecision = { kind: "allow" } | { kind: "needs_approval"; reason: string };

/**
 * Whether a call needs a person's approval. A tool's "never" rule is an admin's trust in a
 * reviewed tool: once the definition drifts (the effect falls back to unclassified) that review no
 * longer applies, so an unclassified tool always goes by its (external-write) effect.
 */
export function decideApprovalGate(params: {
  effect: EffectClass;
  isClassified: boolean;
  rule: ApprovalRule;
  policy: Pick<ApprovalPolicy, "requireApprovalFor">;
}): GateDecision {
  const { effect, isClassified, rule, policy } = params;
  switch (rule) {
    case "always":
      return { kind: "needs_approval", reason: "This tool requires approval for every call." };
    case "never":
      if (isClassified) return { kind: "allow" };
      break;
    case "by-effect":
      break;
    default:
      return assertNever(rule);
  }
  if (!policy.requireApprovalFor.includes(effect)) return { kind: "allow" };
  const unclassified = isClassified
    ? ""
    : " (the tool is not classified yet, so it counts as external-write)";
  return {
    kind: "needs_approval",
    reason: `${effect} calls need approval in this workspace${unclassified}.`,
  };
}

function assertNever(value: never): never {
  throw new Error(`Unexpected approval rule: ${String(value)}`);
}
