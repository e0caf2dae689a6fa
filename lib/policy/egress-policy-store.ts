import { and, eq, sql } from "drizzle-orm";
import { tenantPolicies } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { parseOrThrow } from "@/lib/validation";
import { defaultEgressPolicy, type EgressPolicy, egressPolicySchema } from "./egress-schema";

/** The workspace's egress policy: the stored one, or the default for how this process listens. */
export async function getEgressPolicy(db: Queryable, params: { tenantId: string }): Promise<EgressPolicy> {
  const [row] = await db
    .select({ policy: tenantPolicies.policy })
    .from(tenantPolicies)
    .where(and(eq(tenantPolicies.tenantId, params.tenantId), eq(tenantPolicies.kind, "egress")));
  if (!row) return defaultEgressPolicy({ appListensOnLoopbackOnly: readEnv().listensOnLoopbackOnly });
  // Stored policies were validated on write; parsing again fills defaults added since.
  return egressPolicySchema.parse(row.policy);
}

export async function putEgressPolicy(
  db: Queryable,
  params: { tenantId: string; input: unknown },
): Promise<EgressPolicy> {
  const policy = parseOrThrow(egressPolicySchema, params.input, "The egress policy");
  await db
    .insert(tenantPolicies)
    .values({ tenantId: params.tenantId, kind: "egress", policy })
    .onConflictDoUpdate({
      target: [tenantPolicies.tenantId, tenantPolicies.kind],
      set: { policy, updatedAt: sql`now()` },
    });
  return policy;
}
