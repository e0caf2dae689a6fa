import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import { type Authority, assertInstanceOwner } from "@/lib/auth/instance-owners";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { putEgressPolicy } from "@/lib/policy/egress-policy-store";
import { type EgressPolicy, egressPolicySchema } from "@/lib/policy/egress-schema";
import type { InstancePolicy } from "@/lib/policy/instance-policy-schema";
import { parseInstancePolicy, saveInstancePolicy } from "@/lib/policy/instance-policy-store";
import { parseOrThrow } from "@/lib/validation";
import {
  disableRefusedServers,
  findRefusedServers,
  labelOfRefused as labelOf,
  type RefusedServer,
} from "./policy-sweep";

/**
 * Saving a policy that servers depend on. A narrower policy that would refuse servers already
 * registered is refused with their list (409), unless the person asks for them to be disabled —
 * then they are, each with a diagnostic saying why.
 */

export type PolicyChange<P> = { policy: P; disabledServers: string[] };

export async function updateInstancePolicy(
  db: Database,
  params: { input: unknown; authority: Authority; disableAffected: boolean },
): Promise<PolicyChange<InstancePolicy>> {
  assertInstanceOwner(params.authority);
  const policy = parseInstancePolicy(params.input);
  const refused = await findRefusedServers(db, { instance: policy });
  refuseUnlessConfirmed(refused, params.disableAffected, "instance policy");
  await db.transaction(async (tx) => {
    await saveInstancePolicy(tx, { policy, updatedBy: userOf(params.authority.by) });
    await recordAudit(tx, {
      action: "instance.policy_changed",
      ...auditedBy(params.authority.by),
      detail: disabledDetail(refused),
    });
  });
  await disableRefusedServers(db, refused, params.authority.by);
  return { policy, disabledServers: refused.map(labelOf) };
}

export async function updateWorkspaceEgressPolicy(
  db: Database,
  params: { tenantId: string; input: unknown; disableAffected: boolean; by: AuditActor },
): Promise<PolicyChange<EgressPolicy>> {
  const proposed = parseOrThrow(egressPolicySchema, params.input, "The egress policy");
  const refused = await findRefusedServers(db, { tenantId: params.tenantId, workspace: proposed });
  refuseUnlessConfirmed(refused, params.disableAffected, "egress policy");
  const policy = await db.transaction(async (tx) => {
    const saved = await putEgressPolicy(tx, { tenantId: params.tenantId, input: proposed });
    await recordAudit(tx, {
      tenantId: params.tenantId,
      action: "policy.egress_changed",
      ...auditedBy(params.by),
      detail: disabledDetail(refused),
    });
    return saved;
  });
  await disableRefusedServers(db, refused, params.by);
  return { policy, disabledServers: refused.map(labelOf) };
}

function refuseUnlessConfirmed(refused: readonly RefusedServer[], confirmed: boolean, what: string): void {
  if (refused.length === 0 || confirmed) return;
  const names = refused.map(labelOf);
  throw new AppError(
    "conflict",
    `Nothing was saved: this ${what} would refuse ${refused.length === 1 ? "a server that is registered" : `${refused.length} servers that are registered`} (${names.join(", ")}). Change the policy, or save it with "disable affected servers" to disable them.`,
    { fieldErrors: { affectedServers: refused.map((s) => `${labelOf(s)}: ${s.refusal.reason}`) } },
  );
}

const disabledDetail = (refused: readonly RefusedServer[]) =>
  refused.length > 0 ? `disabled ${refused.map(labelOf).join(", ")}` : null;

const userOf = (by: AuditActor) => (by ? `${by.kind}:${by.id}` : null);
