import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { invitations, type Role, roles, tenants, users } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { type AuditActor, auditedBy, recordAudit, userIdOf } from "./audit";

const INVITATION_DAYS = 7;

export const createInvitationSchema = z.strictObject({
  role: z.enum(roles, { error: "Pick a role: admin, approver or viewer." }),
});

/** Only this hash of a link's token is stored. */
export const hashInvitationToken = (token: string) => createHash("sha256").update(token).digest("hex");
const hash = hashInvitationToken;

/** An invitation link, shown once (no email is sent: the admin passes the link on). */
export async function createInvitation(
  db: Database,
  params: { tenantId: string; input: unknown; by: AuditActor },
): Promise<{ id: string; url: string; role: Role; expiresAt: string }> {
  const { role } = parseOrThrow(createInvitationSchema, params.input, "The invitation");
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600_000);
  const [row] = await db
    .insert(invitations)
    .values({
      tenantId: params.tenantId,
      role,
      tokenHash: hash(token),
      invitedBy: userIdOf(params.by),
      expiresAt,
    })
    .returning({ id: invitations.id });
  if (!row) throw new AppError("internal", "The invitation could not be created.");
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "member.invited",
    ...auditedBy(params.by),
    subject: row.id,
    detail: `as ${role}`,
  });
  return {
    id: row.id,
    url: `${readEnv().publicUrl}/invite/${token}`,
    role,
    expiresAt: expiresAt.toISOString(),
  };
}

/** A link not yet used, revoked or expired: someone may still join with it. */
export type PendingInvitationDto = {
  id: string;
  role: Role;
  /** the admin who made it; null when an API key made it (or the account is gone) */
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
};

const isPending = (tenantId: string) =>
  and(
    eq(invitations.tenantId, tenantId),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, new Date()),
  );

export async function listPendingInvitations(
  db: Database,
  params: { tenantId: string },
): Promise<PendingInvitationDto[]> {
  const rows = await db
    .select({ invitation: invitations, invitedBy: users.name })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(isPending(params.tenantId))
    .orderBy(asc(invitations.createdAt));
  return rows.map(({ invitation, invitedBy }) => ({
    id: invitation.id,
    role: invitation.role,
    invitedBy,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  }));
}

/** A link that leaked, or went to the wrong person, stops working at once. */
export async function revokeInvitation(
  db: Database,
  params: { tenantId: string; id: string; by: AuditActor },
): Promise<void> {
  const [row] = await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.id, params.id), isPending(params.tenantId)))
    .returning({ id: invitations.id, role: invitations.role });
  if (!row)
    throw new AppError(
      "not_found",
      "There is no pending invitation with that id (it may have been used or expired).",
    );
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "member.invitation_revoked",
    ...auditedBy(params.by),
    subject: row.id,
    detail: `as ${row.role}`,
  });
}

export type InvitationView = { workspaceName: string; role: Role; isUsable: boolean };

export async function getInvitation(db: Database, params: { token: string }): Promise<InvitationView> {
  const [row] = await db
    .select({ invitation: invitations, workspaceName: tenants.name })
    .from(invitations)
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .where(eq(invitations.tokenHash, hash(params.token)));
  if (!row) throw new AppError("not_found", "This invitation link is not valid.");
  const { invitation } = row;
  const isUsable = !invitation.acceptedAt && !invitation.revokedAt && invitation.expiresAt > new Date();
  return { workspaceName: row.workspaceName, role: invitation.role, isUsable };
}
