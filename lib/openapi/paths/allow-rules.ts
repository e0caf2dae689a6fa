import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { type AllowRuleDto, createAllowRuleSchema } from "@/lib/approvals/allow-rules";
import { operation, pathParams } from "../operation";
import { describes } from "../type-check";

/** /api/v1/allow-rules: time-boxed rules that let a principal's calls of one tool skip the approval queue. */

const conditionSchema = z
  .object({ field: z.string(), op: z.enum(["equals", "matches"]), value: z.string() })
  .meta({
    id: "AllowRuleCondition",
    description:
      "A top-level argument (as stored, secrets scrubbed) equals `value`, or matches it as a whole-value pattern " +
      "(a safe subset of regular expressions: no backreferences, lookarounds or repeated groups, at most two " +
      "repetitions, at most 200 characters; values over 1024 characters never match).",
  });

export const allowRuleSchema = describes<AllowRuleDto>()(
  z
    .object({
      id: z.string(),
      principal: z.object({ id: z.string(), name: z.string() }),
      tool: z.string().meta({ description: "The gateway name, `<server>__<tool>`." }),
      conditions: z.array(conditionSchema).meta({ description: "All must hold; empty: any arguments." }),
      expiresAt: z.string(),
      status: z.enum(["active", "expired", "revoked"]),
      createdBy: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
      createdAt: z.string(),
      revokedAt: z.string().nullable(),
      revokedBy: z.string().nullable(),
      sourceCallId: z.string().nullable().meta({ description: "The call whose approval it was made from." }),
    })
    .meta({ id: "AllowRule" }),
);

const ruleBody = z.object({ allowRule: allowRuleSchema });

export const allowRulePaths: ZodOpenApiPathsObject = {
  "/api/v1/allow-rules": {
    get: operation("Approvals", {
      id: "listAllowRules",
      summary: "The workspace's allow rules",
      description: "Active, expired and revoked, newest first (at most 500).",
      access: "read",
      responses: [
        {
          status: 200,
          description: "Every rule.",
          schema: z.object({ allowRules: z.array(allowRuleSchema) }),
        },
      ],
    }),
    post: operation("Approvals", {
      id: "createAllowRule",
      summary: "Let a principal call a tool without approval for a while",
      description:
        "Give `durationMinutes` or `until`. Later calls of the principal to the tool that would wait for an " +
        "approver run at once and name the rule (`allowedByRule`). A rule never widens grants: it is refused " +
        "for a tool the principal has no grant for. Also made when approving (`allowRule` on approve).",
      access: "decide",
      body: createAllowRuleSchema,
      responses: [{ status: 201, description: "The rule.", schema: ruleBody }],
      errors: [
        [403, "No self-approval: the workspace forbids a rule for a principal whose key you created"],
        [404, "No such principal or tool"],
      ],
    }),
  },
  "/api/v1/allow-rules/{id}": {
    delete: operation("Approvals", {
      id: "revokeAllowRule",
      summary: "Revoke an allow rule",
      description:
        "Admins, or the person who made the rule. The next matching call waits for an approver again.",
      access: "decide",
      path: pathParams({ id: "The rule's id." }),
      responses: [{ status: 200, description: "The rule, revoked.", schema: ruleBody }],
      errors: [[409, "Already revoked"]],
    }),
  },
};
