import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { instanceSetup, memberships, tenants, verifications } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { listensOnLoopbackOnly } from "@/lib/http/listening";
import { describeClient } from "@/lib/http/request-client";
import { parseOrThrow } from "@/lib/validation";
import { hasAnyAccount, hashPassword, insertAccount, startSession } from "./accounts";
import { recordAudit } from "./audit";
import { newAccountSchema } from "./credentials-schema";
import { makeFirstOwner } from "./instance-owners";
import { clientAddress } from "./request-info";

const SETUP_TOKEN_ID = "switchboard-setup-token";
/** The one row of `instance_setup`: whoever inserts it has set the instance up. */
const SETUP_ROW_ID = "instance";

/**
 * First run: until someone completes setup, the first visitor creates the admin account. "Set up"
 * is a row of its own, written by setup alone: an account that came to exist another way (an
 * invitation the bootstrap key made) never takes setup away from the operator.
 */
export async function needsSetup(db: Queryable): Promise<boolean> {
  const [row] = await db
    .select({ id: instanceSetup.id })
    .from(instanceSetup)
    .where(eq(instanceSetup.id, SETUP_ROW_ID));
  return row === undefined;
}

/** Pages send people to setup rather than sign-in only while nobody could sign in anyway. */
export async function setupComesFirst(db: Queryable): Promise<boolean> {
  return (await needsSetup(db)) && !(await hasAnyAccount(db));
}

/**
 * A local install (sockets bound to loopback only) lets a visitor from this machine set up without
 * the token: a loopback TCP peer forwarding nothing (lib/http/request-client), never a HOST or a
 * header. Anyone else must hold the one-time token printed to the server log at start.
 */
export function setupNeedsToken(headers: Headers): boolean {
  return !(listensOnLoopbackOnly() && describeClient(headers).isLocal);
}

/** A fresh setup token (its hash kept in the database, so any process accepts it). */
export async function issueSetupToken(db: Database): Promise<string> {
  const token = randomBytes(18).toString("base64url");
  await db.delete(verifications).where(eq(verifications.identifier, SETUP_TOKEN_ID));
  await db.insert(verifications).values({
    identifier: SETUP_TOKEN_ID,
    value: hash(token),
    expiresAt: new Date(Date.now() + 24 * 3600_000),
  });
  return token;
}

export const setupSchema = newAccountSchema.extend({ setupToken: z.string().trim().optional() });

const alreadySetUp = () => new AppError("conflict", "Switchboard is already set up. Sign in instead.");

/**
 * Creates the first admin (signed in at once): instance owner, and admin of every existing
 * workspace. One transaction claims setup first, so of two setups at once exactly one wins and
 * the other gets a 409 having created nothing.
 */
export async function completeSetup(
  db: Database,
  params: { input: unknown; headers: Headers },
): Promise<void> {
  const { setupToken, ...account } = parseOrThrow(setupSchema, params.input, "The admin account");
  if (!(await needsSetup(db))) throw alreadySetUp();
  if (setupNeedsToken(params.headers) && !(await isValidSetupToken(db, setupToken))) {
    throw new AppError("forbidden", "Enter the setup token printed in the server log.", {
      fieldErrors: { setupToken: ["This token is not valid."] },
    });
  }
  const passwordHash = await hashPassword(db, account.password);
  await db.transaction(async (tx) => {
    // A second setup waits on this row until the first commits, then finds it taken.
    const claimed = await tx
      .insert(instanceSetup)
      .values({ id: SETUP_ROW_ID })
      .onConflictDoNothing()
      .returning({ id: instanceSetup.id });
    if (claimed.length === 0) throw alreadySetUp();
    const created = await insertAccount(tx, { account, passwordHash });
    if (!created) {
      // Only someone allowed to set up sees this (locally, or holding the token).
      throw new AppError("conflict", "An account with this email already exists.", {
        fieldErrors: { email: ["An account with this email already exists: use another one."] },
      });
    }
    const { userId } = created;
    await tx.update(instanceSetup).set({ completedBy: userId }).where(eq(instanceSetup.id, SETUP_ROW_ID));
    // The person who sets Switchboard up owns the instance (its policy), not only its workspaces.
    await makeFirstOwner(tx, userId);
    const existing = await tx.select({ id: tenants.id }).from(tenants);
    if (existing.length > 0) {
      await tx
        .insert(memberships)
        .values(existing.map((t) => ({ tenantId: t.id, userId, role: "admin" as const })));
    }
    await tx.delete(verifications).where(eq(verifications.identifier, SETUP_TOKEN_ID));
    await recordAudit(tx, {
      action: "auth.setup_completed",
      actorKind: "operator",
      actorId: userId,
      subject: account.email,
      ipAddress: clientAddress(params.headers),
    });
  });
  await startSession(db, { email: account.email, password: account.password, headers: params.headers });
}

async function isValidSetupToken(db: Database, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const [row] = await db.select().from(verifications).where(eq(verifications.identifier, SETUP_TOKEN_ID));
  if (!row || row.expiresAt < new Date()) return false;
  const [a, b] = [Buffer.from(row.value), Buffer.from(hash(token))];
  return a.length === b.length && timingSafeEqual(a, b);
}

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
