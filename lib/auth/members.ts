import { and, asc, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { auditEvents, memberships, type Role, roles, users } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { type AuditActor, auditedBy, recordAudit } from "./audit";

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

export async function changeMemberRole(
  db: Database,
  params: { tenantId: string; userId: string; input: unknown; by: AuditActor },
): Promise<MemberDto> {
  const { userId } = params;
  const { role } = parseOrThrow(changeRoleSchema, params.input, "The role change");
  await db.transaction(async (tx) => {
    const current = await getMembershipOrThrow(tx, params.tenantId, userId);
    if (current.role === "admin" && role !== "admin") await assertAnotherAdmin(tx, params.tenantId);
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.tenantId, params.tenantId), eq(memberships.userId, userId)));
  });
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "member.role_changed",
    ...auditedBy(params.by),
    subject: userId,
    detail: `to ${role}`,
  });
  const [member] = await listMembers(db, { tenantId: params.tenantId, userId });
  if (!member) throw new AppError("not_found", "That person is no longer a member of this workspace.");
  return member;
}

export async function removeMember(
  db: Database,
  params: { tenantId: string; userId: string; by: AuditActor },
): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await getMembershipOrThrow(tx, params.tenantId, params.userId);
    if (current.role === "admin") await assertAnotherAdmin(tx, params.tenantId);
    await tx
      .delete(memberships)
      .where(and(eq(memberships.tenantId, params.tenantId), eq(memberships.userId, params.userId)));
  });
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "member.removed",
    ...auditedBy(params.by),
    subject: params.userId,
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

async function assertAnotherAdmin(db: Queryable, tenantId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, "admin")));
  if ((row?.n ?? 0) <= 1) {
    throw new AppError("conflict", "A workspace needs at least one admin. Make someone else admin first.");
  }
}
