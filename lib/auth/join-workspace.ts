import { and, eq, gt, isNull } from "drizzle-orm";
import { invitations, memberships } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation";
import { hashPassword, insertAccount, startSession } from "./accounts";
import { recordAudit } from "./audit";
import { newAccountSchema } from "./credentials-schema";
import { hashInvitationToken } from "./invitations";

/*
 * Joining a workspace with an invitation link (lib/auth/invitations.ts makes and lists them): the
 * only way, besides first-run setup, that an account comes to exist.
 */

/**
 * Every failure to join reads the same — a made-up, used, revoked or expired link, an email that
 * has an account, a person already in the workspace — so the form tells nobody which links are
 * real or which emails have accounts.
 */
export const joinRefusal = () =>
  new AppError(
    "forbidden",
    "This invitation link cannot be used. Ask an admin for a new one — or, if you already have an account, sign in first and open the link again.",
  );

const pendingWithToken = (token: string) =>
  and(
    eq(invitations.tokenHash, hashInvitationToken(token)),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, new Date()),
  );

/** The signed-in operator joins: the invitation is used exactly once (a conditional update). */
export async function acceptInvitation(
  db: Database,
  params: { token: string; userId: string },
): Promise<{ tenantId: string }> {
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedBy: params.userId })
      .where(pendingWithToken(params.token))
      .returning();
    if (!invitation) throw joinRefusal();
    await addMember(tx, { invitation, userId: params.userId });
    return { tenantId: invitation.tenantId };
  });
}

/**
 * A new person joins: the invitation is locked, the account made and the invitation used in one
 * transaction, so no account exists unless a valid invitation was used for it. Signs them in.
 */
export async function joinWithNewAccount(
  db: Database,
  params: { token: string; input: unknown; headers: Headers },
): Promise<{ tenantId: string }> {
  const account = parseOrThrow(newAccountSchema, params.input, "The account");
  // A cheap look first: a made-up link costs no password hashing.
  const [candidate] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(pendingWithToken(params.token));
  if (!candidate) throw joinRefusal();
  const passwordHash = await hashPassword(db, account.password);
  const joined = await db.transaction(async (tx) => {
    // Locked: a second join with the same link waits, then finds it used.
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.id, candidate.id), pendingWithToken(params.token)))
      .for("update");
    if (!invitation) throw joinRefusal();
    const created = await insertAccount(tx, { account, passwordHash });
    if (!created) throw joinRefusal();
    await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedBy: created.userId })
      .where(eq(invitations.id, invitation.id));
    await addMember(tx, { invitation, userId: created.userId });
    return { tenantId: invitation.tenantId };
  });
  await startSession(db, { email: account.email, password: account.password, headers: params.headers });
  return joined;
}

async function addMember(
  tx: Queryable,
  params: { invitation: typeof invitations.$inferSelect; userId: string },
): Promise<void> {
  const { invitation, userId } = params;
  const added = await tx
    .insert(memberships)
    .values({ tenantId: invitation.tenantId, userId, role: invitation.role })
    .onConflictDoNothing()
    .returning({ id: memberships.id });
  if (added.length === 0) throw joinRefusal();
  await recordAudit(tx, {
    tenantId: invitation.tenantId,
    action: "member.joined",
    actorKind: "operator",
    actorId: userId,
    detail: `as ${invitation.role}`,
  });
}
