import type { Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { checkEgress } from "@/lib/policy/egress";
import { getEgressPolicy } from "@/lib/policy/egress-policy-store";
import type { ServerConfig } from "./config-schema";

/**
 * The egress check at registration. A host that does not resolve *yet* is accepted (the record
 * is an intention; DNS may change); every connect checks again on the resolved addresses.
 */
export async function assertRegistrationEgress(
  db: Queryable,
  params: { tenantId: string; config: ServerConfig },
): Promise<void> {
  const policy = await getEgressPolicy(db, { tenantId: params.tenantId });
  const { config } = params;
  const decision = await checkEgress(policy, {
    transport: config.transport,
    command: config.transport === "stdio" ? config.command : null,
    url: config.transport === "stdio" ? null : config.url,
  });
  if (decision.kind === "allow" || decision.rule === "http.dns") return;
  const field = config.transport === "stdio" ? "command" : "url";
  throw new AppError("policy_denied", `Refused by the egress policy (${decision.rule}): ${decision.reason}`, {
    fieldErrors: { [field]: [decision.reason] },
  });
}
