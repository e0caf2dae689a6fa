import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { tenantPolicies } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { DEFAULT_GATEWAY_NAME_BUDGET, MAX_GATEWAY_NAME_LENGTH, MIN_GATEWAY_NAME_BUDGET } from "./naming";

/**
 * A workspace's gateway name budget: the longest gateway name it hands out, stored in its gateway
 * policy (tenant_policies kind "gateway", field `gatewayNameBudget`, beside the loopback mapping
 * that lib/gateway/settings owns). Read here because discovery (save-catalog) and the renaming
 * (apply-gateway-names) need it and must not depend on the gateway's settings module.
 */

const BUDGET_MESSAGE = `The gateway name budget is a whole number from ${MIN_GATEWAY_NAME_BUDGET} to ${MAX_GATEWAY_NAME_LENGTH} (46 leaves room for Claude Code's mcp__switchboard__ prefix).`;

export const gatewayNameBudgetSchema = z
  .number({ error: BUDGET_MESSAGE })
  .int({ error: BUDGET_MESSAGE })
  .min(MIN_GATEWAY_NAME_BUDGET, { error: BUDGET_MESSAGE })
  .max(MAX_GATEWAY_NAME_LENGTH, { error: BUDGET_MESSAGE });

/** The stored budget; the default when none (or, from an older or hand-edited row, a bad one) is stored. */
export function budgetOfPolicy(policy: Record<string, unknown> | undefined): number {
  const parsed = gatewayNameBudgetSchema.safeParse(policy?.gatewayNameBudget);
  return parsed.success ? parsed.data : DEFAULT_GATEWAY_NAME_BUDGET;
}

export async function readGatewayNameBudget(db: Queryable, params: { tenantId: string }): Promise<number> {
  const [row] = await db
    .select({ policy: tenantPolicies.policy })
    .from(tenantPolicies)
    .where(and(eq(tenantPolicies.tenantId, params.tenantId), eq(tenantPolicies.kind, "gateway")));
  return budgetOfPolicy(row?.policy);
}
