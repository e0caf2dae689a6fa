import { auditEvents } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";

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
  | "gateway.loopback_mapping_changed"
  | "workspace.created"
  | "instance.owner_added"
  | "instance.owner_removed"
  | "instance.policy_changed";

export type AuditEntry = {
  tenantId?: string | null;
  action: AuditAction;
  actorKind: "operator" | "api_key" | "system" | "anonymous";
  actorId?: string | null;
  subject?: string | null;
  ipAddress?: string | null;
  detail?: string | null;
};

/** Who made a change, as the audit log records it; `null` is Switchboard itself (a first start). */
export type AuditActor = { kind: "operator" | "api_key"; id: string } | null;

export const auditedBy = (by: AuditActor): Pick<AuditEntry, "actorKind" | "actorId"> =>
  by ? { actorKind: by.kind, actorId: by.id } : { actorKind: "system", actorId: null };

/** The user behind a change, for columns that name a person (created by, invited by). */
export const userIdOf = (by: AuditActor): string | null => (by?.kind === "operator" ? by.id : null);

/** Never pass secrets, passwords or keys here: the audit log is read by people. */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values(entry);
}
