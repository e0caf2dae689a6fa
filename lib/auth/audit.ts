import { auditEvents } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import type { ChangedBy } from "@/lib/events/event-types";

export type AuditAction =
  | "auth.signed_in"
  | "auth.sign_in_failed"
  | "auth.signed_out"
  | "auth.setup_completed"
  | "member.invited"
  | "member.invitation_revoked"
  | "member.joined"
  | "member.role_changed"
  | "member.removed"
  | "api_key.created"
  | "api_key.revoked"
  | "api_key.deactivated"
  | "api_key.reactivated"
  | "server.registered"
  | "server.updated"
  | "server.deleted"
  | "server.authorized"
  | "server.deauthorized"
  | "secret.set"
  | "secret.deleted"
  | "principal.created"
  | "principal.deleted"
  | "principal.grants_changed"
  | "tool.policy_changed"
  | "call.arguments_edited"
  | "tool.quarantined"
  | "tool.quarantine_cleared"
  | "policy.approvals_changed"
  | "policy.limits_changed"
  | "allow_rule.created"
  | "allow_rule.revoked"
  | "policy.egress_changed"
  | "gateway.loopback_mapping_changed"
  | "gateway.name_budget_changed"
  | "workspace.created"
  | "instance.owner_added"
  | "instance.owner_removed"
  | "instance.policy_changed"
  | "elicitation.answered"
  | "webhook.created"
  | "webhook.updated"
  | "webhook.deleted"
  | "model_connection.created"
  | "model_connection.deleted"
  | "agent_run.started"
  | "agent_run.cancelled";

export type AuditEntry = {
  tenantId?: string | null;
  action: AuditAction;
  actorKind: "operator" | "api_key" | "system" | "anonymous";
  actorId?: string | null;
  /** the person's or the key's name when it acted */
  actorName?: string | null;
  subject?: string | null;
  ipAddress?: string | null;
  detail?: string | null;
};

/**
 * Who made a change, as the audit log records it; `null` is Switchboard itself (a first start).
 * `name` is kept with the entry, so it still says who after the person or key is gone. A key's
 * `personId` is the person it acts for (its creator; null for the machine's bootstrap key).
 */
export type AuditActor =
  | { kind: "operator"; id: string; name?: string }
  | { kind: "api_key"; id: string; name?: string; personId?: string | null }
  | null;

export const auditedBy = (by: AuditActor): Pick<AuditEntry, "actorKind" | "actorId" | "actorName"> =>
  by
    ? { actorKind: by.kind, actorId: by.id, actorName: by.name ?? null }
    : { actorKind: "system", actorId: null, actorName: null };

/** The same "who" for the event a change records (lib/events: `by`). */
export const changedByOf = (by: AuditActor): ChangedBy =>
  by ? { kind: by.kind, id: by.id, name: by.name ?? null } : { kind: "system", id: null, name: null };

/**
 * The person behind a change, for columns that name one (created by, invited by): the operator, or
 * the person a key acts for — so a key made by a key is still its creator person's.
 */
export const userIdOf = (by: AuditActor): string | null =>
  by?.kind === "operator" ? by.id : by?.kind === "api_key" ? (by.personId ?? null) : null;

/** Never pass secrets, passwords or keys here: the audit log is read by people. */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values(entry);
}
