import { sql } from "drizzle-orm";
import { tenantPolicies } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";

/**
 * Writes fields of a workspace's gateway policy (tenant_policies kind "gateway"): merged into the
 * stored row, never replacing it — the row holds the loopback mapping (loopback-mapping.ts) and the
 * name budget (name-budget.ts), each saved on its own.
 */
export async function mergeGatewayPolicy(
  db: Queryable,
  params: { tenantId: string; fields: Record<string, unknown> },
): Promise<void> {
  await db
    .insert(tenantPolicies)
    .values({ tenantId: params.tenantId, kind: "gateway", policy: params.fields })
    .onConflictDoUpdate({
      target: [tenantPolicies.tenantId, tenantPolicies.kind],
      set: { policy: sql`${tenantPolicies.policy} || excluded.policy`, updatedAt: sql`now()` },
    });
}
