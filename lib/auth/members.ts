import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { auditEvents, memberships, type Role, roles, users } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { type AuditActor, auditedBy, recordAudit } from "./audit";
import { recordKeyStandingChanges } from "./key-standing";

export type MemberDto = {
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
  /** from the audit trail (first-run setup signs in too); null if never */
  lastSignedInAt: string | null;
};

const lastSignedIn = sql`(select max(${auditEvents.createdAt}) from ${auditEvents}
  where ${auditEvents.actorId} = ${users.id}
    and ${auditEvents.action} in ('auth.signed_in', 'auth.setup_completed'))`.mapWith(auditEvents.createdAt);

/** The workspace's members, oldest first; with `userId`, only that one (or none). */
export async function listMembers(
  db: Database,
  params: { tenantId: string; userId?: string },
): Promise<MemberDto[]> {
  const rows = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      joinedAt: memberships.createdAt,
      lastSignedInAt: lastSignedIn,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.tenantId, params.tenantId),
        params.userId ? eq(memberships.userId, params.userId) : undefined,
      ),
    )
    .orderBy(asc(memberships.createdAt));
  return rows.map((r) => ({
    ...r,
    joinedAt: r.joinedAt.toISOString(),
    lastSignedInAt: r.lastSignedInAt ? new Date(r.lastSignedInAt).toISOString() : null,
  }));
}

export const changeRoleSchema = z.strictObject({
  role: z.enum(roles, { error: "Pick a role: admin, approver or viewer." }),
});

/**
 * Role changes and removals hold a lock on the workspace's admin memberships while they check that
 * another admin stays (SELECT … FOR UPDATE): two admins demoting each other at once on PostgreSQL
 * then run one after the other, and the second sees the first's result — one admin is always left.
 * The audit entries (and the deactivation of the person's keys) commit with the change.
 */
export async function changeMemberRole(
  db: Database,
  params: { tenantId: string; userId: string; input: unknown; by: AuditActor },
): Promise<MemberDto> {
  const { userId, tenantId } = params;
  const { role } = parseOrThrow(changeRoleSchema, params.input, "The role change");
  await db.transaction(async (tx) => {
    const admins = await lockAdmins(tx, tenantId);
    const current = await getMembershipOrThrow(tx, tenantId, userId);
    if (current.role === "admin" && role !== "admin") assertAnotherAdmin(admins, userId);
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)));
    await recordAudit(tx, {
      tenantId,
      action: "member.role_changed",
      ...auditedBy(params.by),
      subject: userId,
      detail: `to ${role}`,
    });
    await recordKeyStandingChanges(tx, {
      tenantId,
      userId,
      before: current.role,
      after: role,
      by: params.by,
    });
  });
  const [member] = await listMembers(db, { tenantId, userId });
  if (!member) throw new AppError("not_found", "That person is no longer a member of this workspace.");
  return member;
}

export async function removeMember(
  db: Database,
  params: { tenantId: string; userId: string; by: AuditActor },
): Promise<void> {
  const { userId, tenantId } = params;
  await db.transaction(async (tx) => {
    const admins = await lockAdmins(tx, tenantId);
    const current = await getMembershipOrThrow(tx, tenantId, userId);
    if (current.role === "admin") assertAnotherAdmin(admins, userId);
    await tx
      .delete(memberships)
      .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)));
    await recordAudit(tx, { tenantId, action: "member.removed", ...auditedBy(params.by), subject: userId });
    await recordKeyStandingChanges(tx, {
      tenantId,
      userId,
      before: current.role,
      after: null,
      by: params.by,
    });
  });
}

async function getMembershipOrThrow(db: Queryable, tenantId: string, userId: string) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, userId)));
  if (!row) throw new AppError("not_found", "That person is not a member of this workspace.");
  return row;
}

/**
 * The workspace's admins, locked until the transaction ends. A concurrent change waiting on the
 * lock re-reads each row when it gets it, so an admin demoted meanwhile is no longer counted.
 */
function lockAdmins(tx: Queryable, tenantId: string): Promise<{ userId: string }[]> {
  return tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, "admin")))
    .for("update");
}

function assertAnotherAdmin(admins: readonly { userId: string }[], leaving: string): void {
  if (!admins.some((admin) => admin.userId !== leaving)) {
    throw new AppError("conflict", "A workspace needs at least one admin. Make someone else admin first.");
  }
}
