import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { z } from "zod";
import { memberships, tenants, users, verifications } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { listensOnLoopbackOnly } from "@/lib/http/listening";
import { describeClient } from "@/lib/http/request-client";
import { parseOrThrow } from "@/lib/validation";
import { createAccount } from "./accounts";
import { recordAudit } from "./audit";
import { newAccountSchema } from "./credentials-schema";
import { makeFirstOwner } from "./instance-owners";
import { clientAddress } from "./request-info";

const SETUP_TOKEN_ID = "switchboard-setup-token";

/** First run: no operator exists yet, so the first visitor creates the admin account. */
export async function needsSetup(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) === 0;
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

/** Creates the first admin (signed in at once) and makes them admin of every existing workspace. */
export async function completeSetup(
  db: Database,
  params: { input: unknown; headers: Headers },
): Promise<void> {
  const { setupToken, ...account } = parseOrThrow(setupSchema, params.input, "The admin account");
  if (!(await needsSetup(db))) {
    throw new AppError("conflict", "Switchboard is already set up. Sign in instead.");
  }
  if (setupNeedsToken(params.headers) && !(await isValidSetupToken(db, setupToken))) {
    throw new AppError("forbidden", "Enter the setup token printed in the server log.", {
      fieldErrors: { setupToken: ["This token is not valid."] },
    });
  }
  const { userId } = await createAccount(db, { input: account, headers: params.headers });
  // The person who sets Switchboard up owns the instance (its policy), not only its workspaces.
  await makeFirstOwner(db, userId);
  const existing = await db.select({ id: tenants.id }).from(tenants);
  if (existing.length > 0) {
    await db
      .insert(memberships)
      .values(existing.map((t) => ({ tenantId: t.id, userId, role: "admin" as const })));
  }
  await db.delete(verifications).where(eq(verifications.identifier, SETUP_TOKEN_ID));
  await recordAudit(db, {
    action: "auth.setup_completed",
    actorKind: "operator",
    actorId: userId,
    subject: account.email,
    ipAddress: clientAddress(params.headers),
  });
}

async function isValidSetupToken(db: Database, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const [row] = await db.select().from(verifications).where(eq(verifications.identifier, SETUP_TOKEN_ID));
  if (!row || row.expiresAt < new Date()) return false;
  const [a, b] = [Buffer.from(row.value), Buffer.from(hash(token))];
  return a.length === b.length && timingSafeEqual(a, b);
}

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
