import type { Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { ResolveHost } from "@/lib/policy/dns-resolver";
import { getEgressPolicy } from "@/lib/policy/egress-policy-store";
import { getInstancePolicy } from "@/lib/policy/instance-policy-store";
import {
  checkServerPolicy,
  type PolicyRefusal,
  resolverWithinPolicy,
  type ServerPermit,
  type ServerPolicies,
  type ServerTarget,
} from "@/lib/policy/server-policy";
import type { ConnectionConfig } from "@/lib/upstream/connection-config";

/** The policies a workspace's servers run under: the instance policy and the workspace's narrowing of it. */
export async function loadServerPolicies(
  db: Queryable,
  params: { tenantId: string },
): Promise<ServerPolicies> {
  const [instance, workspace] = await Promise.all([
    getInstancePolicy(db),
    getEgressPolicy(db, { tenantId: params.tenantId }),
  ]);
  return { instance, workspace };
}

/** A refusal as the one error type: 403 naming the policy and rule, the reason beside its field. */
export function policyRefusalError(refusal: PolicyRefusal): AppError {
  const which = refusal.policy === "instance" ? "the instance policy" : "the workspace's egress policy";
  return new AppError("policy_denied", `Refused by ${which} (${refusal.rule}): ${refusal.reason}`, {
    fieldErrors: { [refusal.field]: [refusal.reason] },
  });
}

/**
 * The check at registration, update and import. A host that does not resolve *yet* is accepted
 * (the record is an intention; DNS may change); every connect checks again on the resolved addresses.
 */
export async function assertServerAllowed(
  db: Queryable,
  params: { tenantId: string; config: ServerTarget; ownerLaunch: boolean },
): Promise<ServerPermit> {
  const policies = await loadServerPolicies(db, params);
  const decision = await checkServerPolicy(policies, params.config, { ownerLaunch: params.ownerLaunch });
  if (decision.kind === "allow") return decision;
  if (decision.rule === "http.dns") return { kind: "allow" };
  throw policyRefusalError(decision);
}

/**
 * The check before every connect, on the configuration as stored: the program saved at
 * registration (never one found through the server's own PATH), the launch an owner saved counted
 * as theirs, and every address the host resolves to now.
 */
export async function checkConnectionPolicy(
  db: Queryable,
  config: ConnectionConfig,
): Promise<ServerPermit & { resolveHost?: ResolveHost }> {
  const policies = await loadServerPolicies(db, { tenantId: config.tenantId });
  const decision = await checkServerPolicy(
    policies,
    { ...config, command: config.programPath ?? config.command },
    { ownerLaunch: config.launchApprovedBy !== null },
  );
  if (decision.kind === "deny") throw policyRefusalError(decision);
  if (config.transport === "stdio") return decision;
  // Every socket of the connection resolves again and is judged by the same policies (DNS rebinding).
  return { ...decision, resolveHost: resolverWithinPolicy(policies) };
}
