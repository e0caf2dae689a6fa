import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { allowRules } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { conditionsHold } from "./allow-rule-conditions";

/**
 * The allow rule that lets a call through without an approver, if any. Asked only on the rare
 * path — after the principal's grant allowed the call and the approval gate said it needs an
 * approval — so rules are read fresh each time and need no cache to invalidate: a revoke or an
 * expiry applies to the very next call, on every process.
 */
export async function findMatchingAllowRule(
  db: Queryable,
  params: { tenantId: string; principalId: string; gatewayName: string; arguments: Record<string, unknown> },
): Promise<string | undefined> {
  const rules = await db
    .select({ id: allowRules.id, conditions: allowRules.conditions })
    .from(allowRules)
    .where(
      and(
        eq(allowRules.tenantId, params.tenantId),
        eq(allowRules.principalId, params.principalId),
        eq(allowRules.gatewayName, params.gatewayName),
        isNull(allowRules.revokedAt),
        gt(allowRules.expiresAt, new Date()),
      ),
    )
    // The oldest matching rule is named, so repeated calls name the same one.
    .orderBy(asc(allowRules.createdAt), asc(allowRules.id));
  return rules.find((rule) => conditionsHold(rule.conditions, params.arguments))?.id;
}
