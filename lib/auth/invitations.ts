import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { invitations, memberships, type Role, roles, tenants } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { type AuditActor, auditedBy, recordAudit, userIdOf } from "./audit";

const INVITATION_DAYS = 7;

export const createInvitationSchema = z.strictObject({
  role: z.enum(roles, { error: "Pick a role: admin, approver or viewer." }),
});

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** An invitation link, shown once (no email is sent: the admin passes the link on). */
export async function createInvitation(
  db: Database,
  params: { tenantId: string; input: unknown; by: AuditActor },
): Promise<{ url: string; role: Role; expiresAt: string }> {
  const { role } = parseOrThrow(createInvitationSchema, params.input, "The invitation");
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600_000);
  await db.insert(invitations).values({
    tenantId: params.tenantId,
    role,
    tokenHash: hash(token),
    invitedBy: userIdOf(params.by),
    expiresAt,
  });
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "member.invited",
    ...auditedBy(params.by),
    detail: `as ${role}`,
  });
  return { url: `${readEnv().publicUrl}/invite/${token}`, role, expiresAt: expiresAt.toISOString() };
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

/** Uses the invitation exactly once (a conditional update), then adds the membership. */
export async function acceptInvitation(
  db: Database,
  params: { token: string; userId: string },
): Promise<{ tenantId: string }> {
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedBy: params.userId })
      .where(
        and(
          eq(invitations.tokenHash, hash(params.token)),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!invitation) throw new AppError("conflict", "This invitation has expired or was already used.");
    try {
      await tx
        .insert(memberships)
        .values({ tenantId: invitation.tenantId, userId: params.userId, role: invitation.role });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError("conflict", "You are already a member of this workspace.");
      throw error;
    }
    await recordAudit(tx, {
      tenantId: invitation.tenantId,
      action: "member.joined",
      actorKind: "operator",
      actorId: params.userId,
      detail: `as ${invitation.role}`,
    });
    return { tenantId: invitation.tenantId };
  });
}
