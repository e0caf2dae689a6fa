import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { type AllowRuleCondition, allowRules, apiKeys, principals, tools } from "@/db/schema";
import { type AuditActor, auditedBy, changedByOf, recordAudit, userIdOf } from "@/lib/auth/audit";
import type { Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { getApprovalPolicy } from "@/lib/policy/approval-rules";
import { findGrant } from "@/lib/policy/grant-patterns";
import { listGrantPatterns } from "@/lib/principals/principals";
import { parseOrThrow } from "@/lib/validation";
import { compileSafePattern } from "./allow-rule-conditions";

/**
 * Allow rules: "let <principal> call <tool> without an approver until <time>", optionally only for
 * given argument values. Made by whoever may decide approvals (from an approval, or on their own),
 * revoked by an admin or the rule's maker; both audited and announced (allow_rule.* events).
 *
 * A rule never widens grants: it is refused for a tool the principal has no grant for, and is only
 * consulted after the grant allowed a call (lib/approvals/allow-rule-match.ts). Expiry needs no
 * sweep: a rule past `expires_at` is simply not applied, and listed as expired.
 */

const MAX_RULE_MINUTES = 366 * 24 * 60;

export const allowRuleConditionSchema = z
  .strictObject({
    field: z.string().trim().min(1, { error: "Name the argument." }).max(200),
    op: z.enum(["equals", "matches"], { error: 'op is "equals" or "matches".' }),
    value: z.string({ error: "value is text." }).max(2000),
  })
  .superRefine((condition, ctx) => {
    if (condition.op !== "matches") return;
    const compiled = compileSafePattern(condition.value);
    if (!compiled.ok) ctx.addIssue({ code: "custom", path: ["value"], message: compiled.reason });
  });

/** How long: a number of minutes from now, or until a moment; exactly one. */
export const allowRuleTermSchema = z.strictObject({
  durationMinutes: z
    .number({ error: "durationMinutes is a number of minutes." })
    .int()
    .min(1, { error: "A rule lasts at least a minute." })
    .max(MAX_RULE_MINUTES, { error: "A rule lasts at most a year." })
    .optional(),
  until: z.iso.datetime({ offset: true, error: "until is a date and time (ISO 8601)." }).optional(),
  conditions: z.array(allowRuleConditionSchema).max(10, { error: "At most 10 conditions." }).default([]),
});

export const createAllowRuleSchema = allowRuleTermSchema.extend({
  principalId: z.string({ error: "principalId is required." }).trim().min(1).max(100),
  tool: z.string({ error: "tool is required." }).trim().min(1).max(200),
});

export type AllowRuleTerm = z.input<typeof allowRuleTermSchema>;

export type AllowRuleDto = {
  id: string;
  principal: { id: string; name: string };
  tool: string;
  conditions: AllowRuleCondition[];
  expiresAt: string;
  status: "active" | "expired" | "revoked";
  createdBy: { id: string | null; name: string | null };
  createdAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  sourceCallId: string | null;
};

/** The moment a term ends; refused when it is not in the future. */
export function expiryOf(term: z.infer<typeof allowRuleTermSchema>, now = new Date()): Date {
  if ((term.durationMinutes === undefined) === (term.until === undefined))
    throw new AppError("validation", "Say how long the rule lasts: durationMinutes or until, not both.", {
      fieldErrors: { durationMinutes: ["Give durationMinutes or until."] },
    });
  const expiresAt =
    term.until !== undefined
      ? new Date(term.until)
      : new Date(now.getTime() + (term.durationMinutes ?? 0) * 60_000);
  if (expiresAt.getTime() <= now.getTime())
    throw new AppError(
      "validation",
      `The rule would end at ${expiresAt.toISOString()}, which is already past.`,
      {
        fieldErrors: { until: ["Pick a moment in the future."] },
      },
    );
  if (expiresAt.getTime() > now.getTime() + MAX_RULE_MINUTES * 60_000)
    throw new AppError("validation", "A rule lasts at most a year.", {
      fieldErrors: { until: ["At most a year."] },
    });
  return expiresAt;
}

/** POST /api/v1/allow-rules: a rule on its own, for any principal and tool it has a grant for. */
export function createAllowRule(
  db: Queryable,
  params: { tenantId: string; input: unknown; by: AuditActor },
): Promise<AllowRuleDto> {
  const input = parseOrThrow(createAllowRuleSchema, params.input, "The allow rule");
  return insertAllowRule(db, {
    tenantId: params.tenantId,
    principalId: input.principalId,
    tool: input.tool,
    term: input,
    by: params.by,
    sourceCallId: null,
  });
}

/** Checks the rule against the workspace (principal, tool, grant), writes it, audits and announces it. */
export async function insertAllowRule(
  db: Queryable,
  params: {
    tenantId: string;
    principalId: string;
    tool: string;
    term: z.infer<typeof allowRuleTermSchema>;
    by: AuditActor;
    sourceCallId: string | null;
  },
): Promise<AllowRuleDto> {
  const { tenantId, principalId, tool, by } = params;
  const expiresAt = expiryOf(params.term);
  const [principal] = await db
    .select({ name: principals.name })
    .from(principals)
    .where(and(eq(principals.tenantId, tenantId), eq(principals.id, principalId)));
  if (!principal) throw new AppError("not_found", "There is no principal with that id in this workspace.");
  const [liveTool] = await db
    .select({ id: tools.id })
    .from(tools)
    .where(and(eq(tools.tenantId, tenantId), eq(tools.gatewayName, tool), isNull(tools.removedAt)))
    .limit(1);
  if (!liveTool) throw new AppError("not_found", `There is no tool named ${tool} in this workspace.`);
  if (!findGrant(await listGrantPatterns(db, { tenantId, principalId }), tool))
    throw new AppError(
      "validation",
      `The principal "${principal.name}" has no grant for ${tool}, and a rule never widens grants: an admin must grant the tool first.`,
      { fieldErrors: { tool: [`"${principal.name}" has no grant for ${tool}.`] } },
    );
  await assertNotOwnPrincipal(db, { tenantId, principalId, principalName: principal.name, by });
  const [row] = await db
    .insert(allowRules)
    .values({
      tenantId,
      principalId,
      gatewayName: tool,
      conditions: params.term.conditions ?? [],
      expiresAt,
      createdBy: userIdOf(by),
      createdByName: by?.name ?? null,
      sourceCallId: params.sourceCallId,
      createdAt: new Date(),
    })
    .returning();
  if (!row) throw new AppError("internal", "The rule could not be created.");
  await recordAudit(db, {
    tenantId,
    action: "allow_rule.created",
    ...auditedBy(by),
    subject: row.id,
    detail: `${principal.name} may call ${tool} until ${expiresAt.toISOString()}${describeConditions(row.conditions)}`,
  });
  await recordEvent(db, {
    tenantId,
    event: {
      type: "allow_rule.created",
      ruleId: row.id,
      principalId,
      principalName: principal.name,
      tool,
      expiresAt: expiresAt.toISOString(),
      by: changedByOf(by),
    },
  });
  return toDto(row, principal.name);
}

/**
 * "No self-approval" holds for rules too: where the workspace forbids approving one's own calls, a
 * person may not make a rule for a principal whose keys they created (lib/approvals/people-behind.ts)
 * — else one rule would approve all their own calls ahead of time.
 */
async function assertNotOwnPrincipal(
  db: Queryable,
  params: { tenantId: string; principalId: string; principalName: string; by: AuditActor },
): Promise<void> {
  const person = userIdOf(params.by);
  if (person === null) return;
  const [own] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.tenantId, params.tenantId),
        eq(apiKeys.principalId, params.principalId),
        eq(apiKeys.createdBy, person),
      ),
    )
    .limit(1);
  if (!own) return;
  const policy = await getApprovalPolicy(db, params);
  if (!policy.forbidSelfApproval) return;
  throw new AppError(
    "forbidden",
    `No self-approval: you created a key of "${params.principalName}", and this workspace does not let people approve their own calls — nor make allow rules for them. Ask another approver.`,
  );
}

function describeConditions(conditions: readonly AllowRuleCondition[]): string {
  if (conditions.length === 0) return "";
  const parts = conditions.map((c) =>
    c.op === "equals" ? `${c.field} = ${c.value}` : `${c.field} ~ /${c.value}/`,
  );
  return `, when ${parts.join(" and ")}`;
}

/** The workspace's rules, newest first: active, expired and revoked. */
export async function listAllowRules(
  db: Queryable,
  params: { tenantId: string; id?: string },
): Promise<AllowRuleDto[]> {
  const rows = await db
    .select({ rule: allowRules, principalName: principals.name })
    .from(allowRules)
    .innerJoin(principals, eq(principals.id, allowRules.principalId))
    .where(
      and(eq(allowRules.tenantId, params.tenantId), params.id ? eq(allowRules.id, params.id) : undefined),
    )
    .orderBy(desc(allowRules.createdAt))
    .limit(500);
  return rows.map((row) => toDto(row.rule, row.principalName));
}

/** Revoking: an admin, or the person who made the rule. */
export async function revokeAllowRule(
  db: Queryable,
  params: { tenantId: string; id: string; by: AuditActor; isAdmin: boolean },
): Promise<AllowRuleDto> {
  const [rule] = await listAllowRules(db, params);
  if (!rule) throw new AppError("not_found", "There is no allow rule with that id in this workspace.");
  const person = userIdOf(params.by);
  if (!params.isAdmin && (person === null || person !== rule.createdBy.id))
    throw new AppError("forbidden", "Only an admin or the person who made this rule can revoke it.");
  if (rule.status === "revoked")
    throw new AppError("conflict", `This rule was already revoked at ${rule.revokedAt}.`);
  await db
    .update(allowRules)
    .set({ revokedAt: new Date(), revokedByName: params.by?.name ?? null })
    .where(and(eq(allowRules.id, rule.id), isNull(allowRules.revokedAt)));
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "allow_rule.revoked",
    ...auditedBy(params.by),
    subject: rule.id,
    detail: `${rule.principal.name} on ${rule.tool}`,
  });
  await recordEvent(db, {
    tenantId: params.tenantId,
    event: { type: "allow_rule.revoked", ruleId: rule.id, tool: rule.tool, by: changedByOf(params.by) },
  });
  const [after] = await listAllowRules(db, params);
  return after ?? rule;
}

function toDto(row: typeof allowRules.$inferSelect, principalName: string, now = new Date()): AllowRuleDto {
  return {
    id: row.id,
    principal: { id: row.principalId, name: principalName },
    tool: row.gatewayName,
    conditions: row.conditions,
    expiresAt: row.expiresAt.toISOString(),
    status: row.revokedAt ? "revoked" : row.expiresAt <= now ? "expired" : "active",
    createdBy: { id: row.createdBy, name: row.createdByName },
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: row.revokedByName,
    sourceCallId: row.sourceCallId,
  };
}
