import type { EffectClass } from "@/db/schema";

/**
 * The approval gate, as a pure rule: the server applies it to every call (lib/calls), and the
 * dashboard reads it to tell beforehand whether a call will wait — one rule, never a copy.
 */

export const approvalRules = ["by-effect", "always", "never"] as const;
export type ApprovalRule = (typeof approvalRules)[number];

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
  policy: { requireApprovalFor: readonly EffectClass[] };
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
