import { eq, sql } from "drizzle-orm";
import { instancePolicies } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { parseOrThrow } from "@/lib/validation";
import { defaultInstancePolicy, type InstancePolicy, instancePolicySchema } from "./instance-policy-schema";

const ROW_ID = "instance";

/** The instance policy: the stored one, or the default for how this process listens. */
export async function getInstancePolicy(db: Queryable): Promise<InstancePolicy> {
  const [row] = await db
    .select({ policy: instancePolicies.policy })
    .from(instancePolicies)
    .where(eq(instancePolicies.id, ROW_ID));
  if (!row) return defaultInstancePolicy({ appListensOnLoopbackOnly: readEnv().listensOnLoopbackOnly });
  // Validated on write; parsing again fills defaults added since.
  return instancePolicySchema.parse(row.policy);
}

export function parseInstancePolicy(input: unknown): InstancePolicy {
  return parseOrThrow(instancePolicySchema, input, "The instance policy");
}

export async function saveInstancePolicy(
  db: Queryable,
  params: { policy: InstancePolicy; updatedBy: string | null },
): Promise<void> {
  const values = { policy: params.policy, updatedBy: params.updatedBy };
  await db
    .insert(instancePolicies)
    .values({ id: ROW_ID, ...values })
    .onConflictDoUpdate({ target: instancePolicies.id, set: { ...values, updatedAt: sql`now()` } });
}
