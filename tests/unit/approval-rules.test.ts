import { describe, expect, it } from "vitest";
import { type ApprovalRule, decideApprovalGate } from "@/lib/policy/approval-gate";
import { approvalPolicySchema, defaultApprovalPolicy } from "@/lib/policy/approval-rules";
import type { EffectClass } from "@/lib/policy/effects";

const defaults = defaultApprovalPolicy();

describe("approval rules", () => {
  it("defaults: external-write and destructive need approval, 10 minutes, no self-approval", () => {
    expect(defaults).toEqual({
      requireApprovalFor: ["external-write", "destructive"],
      forbidSelfApproval: true,
      expirySeconds: 600,
    });
  });

  it.each<[EffectClass, boolean, ApprovalRule, EffectClass[], "allow" | "needs_approval"]>([
    // effect, classified, rule, requireApprovalFor, decision
    ["read", true, "by-effect", defaults.requireApprovalFor, "allow"],
    ["write", true, "by-effect", defaults.requireApprovalFor, "allow"],
    ["external-write", true, "by-effect", defaults.requireApprovalFor, "needs_approval"],
    ["destructive", true, "by-effect", defaults.requireApprovalFor, "needs_approval"],
    ["external-write", false, "by-effect", defaults.requireApprovalFor, "needs_approval"],
    ["read", true, "always", defaults.requireApprovalFor, "needs_approval"],
    ["read", true, "always", [], "needs_approval"],
    ["destructive", true, "never", defaults.requireApprovalFor, "allow"],
    // "never" was decided for a reviewed definition; an unclassified (drifted) tool goes by effect.
    ["external-write", false, "never", defaults.requireApprovalFor, "needs_approval"],
    ["external-write", false, "never", ["destructive"], "allow"],
    ["write", true, "by-effect", ["write"], "needs_approval"],
    ["destructive", true, "by-effect", [], "allow"],
  ])(
    "%s (classified: %s, rule %s, policy %j) → %s",
    (effect, isClassified, rule, requireApprovalFor, expected) => {
      const decision = decideApprovalGate({ effect, isClassified, rule, policy: { requireApprovalFor } });
      expect(decision.kind).toBe(expected);
      if (decision.kind === "needs_approval") expect(decision.reason.length).toBeGreaterThan(10);
    },
  );

  it("says when an unclassified tool is held because it is unclassified", () => {
    const decision = decideApprovalGate({
      effect: "external-write",
      isClassified: false,
      rule: "by-effect",
      policy: defaults,
    });
    expect(decision).toMatchObject({
      kind: "needs_approval",
      reason: expect.stringContaining("not classified"),
    });
  });

  it.each([
    [{ expirySeconds: 0 }, false],
    [{ expirySeconds: 604_801 }, false],
    [{ expirySeconds: 1.5 }, false],
    [{ requireApprovalFor: ["everything"] }, false],
    [{ surprise: true }, false],
    [{ requireApprovalFor: [], forbidSelfApproval: true, expirySeconds: 30 }, true],
  ])("validates %j: %s", (input, valid) => {
    expect(approvalPolicySchema.safeParse(input).success).toBe(valid);
  });

  it("orders and de-duplicates the effects", () => {
    expect(
      approvalPolicySchema.parse({ requireApprovalFor: ["destructive", "read", "destructive"] })
        .requireApprovalFor,
    ).toEqual(["read", "destructive"]);
  });
});
