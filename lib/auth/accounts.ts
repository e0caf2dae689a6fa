import { accounts, users } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getAuth } from "./better-auth";
import type { NewAccount } from "./credentials-schema";

/*
 * Operator accounts. better-auth's own sign-up is closed (lib/auth/better-auth.ts): an account is
 * made only here, inside the transaction of what allows it — a valid invitation used at that
 * moment, or first-run setup claimed at that moment — so a failure leaves no account behind.
 * better-auth still hashes the password (its configured scrypt) and opens the session.
 */

/** Hashed before the transaction opens: scrypt takes a while, and holds no lock meanwhile. */
export async function hashPassword(db: Database, password: string): Promise<string> {
  const context = await getAuth(db).$context;
  return context.password.hash(password);
}

/**
 * Inserts the person and their password inside the caller's transaction; `null` when the email
 * has an account already (the caller decides what that may reveal).
 */
export async function insertAccount(
  tx: Queryable,
  params: { account: NewAccount; passwordHash: string },
): Promise<{ userId: string } | null> {
  const { name, email } = params.account;
  const [user] = await tx
    .insert(users)
    .values({ name, email })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (!user) return null;
  await tx.insert(accounts).values({
    accountId: user.id,
    providerId: "credential",
    userId: user.id,
    password: params.passwordHash,
  });
  return { userId: user.id };
}

/** Signs a just-created account in: the session cookie is set on the response. */
export async function startSession(
  db: Database,
  params: { email: string; password: string; headers: Headers },
): Promise<void> {
  await getAuth(db).api.signInEmail({
    body: { email: params.email, password: params.password },
    headers: params.headers,
  });
}

export async function hasAnyAccount(db: Queryable): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return row !== undefined;
}

/** The signed-in operator's id, whether or not they belong to a workspace yet. */
export async function requireSessionUserId(db: Database, headers: Headers): Promise<string> {
  const session = await getAuth(db).api.getSession({ headers });
  if (!session) throw new AppError("unauthenticated", "Sign in to continue (your session may have expired).");
  return session.user.id;
}
