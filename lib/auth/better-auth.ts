import { createHmac } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { accounts, sessions, users, verifications } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { loadSecretKey } from "@/lib/secrets/encryption";

/**
 * better-auth owns passwords (scrypt), sessions (database rows behind a signed, http-only,
 * SameSite=Lax cookie) and sign-in. Its own HTTP handler is deliberately not mounted:
 * Switchboard calls `auth.api.*` from its server actions, so every entry point stays ours
 * (authorization, audit, rate limit) and there is no second, unaudited sign-in route. Its sign-up
 * is closed, in the API too: an account is made only with a valid invitation or by first-run
 * setup, inside their transactions (lib/auth/accounts.ts).
 */
function createAuth(db: Database) {
  const env = readEnv();
  return betterAuth({
    appName: "Switchboard",
    baseURL: env.publicUrl,
    // Derived from the secrets key so one key protects both; HMAC keeps the two uses apart.
    secret: createHmac("sha256", loadSecretKey(env)).update("better-auth-session-signing").digest("hex"),
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 10, maxPasswordLength: 256 },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    advanced: {
      cookiePrefix: "switchboard",
      useSecureCookies: env.publicUrl.startsWith("https://"),
      database: { generateId: () => crypto.randomUUID() },
      // It would read X-Forwarded-For, which anyone can write; the audit log records the socket's
      // address instead (lib/http/request-client).
      ipAddress: { disableIpTracking: true },
    },
    // Sign-in attempts are limited by lib/auth/sign-in-limits.ts, in the database (shared by replicas).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const cache = new WeakMap<Database, Auth>();

export function getAuth(db: Database): Auth {
  let auth = cache.get(db);
  if (!auth) {
    auth = createAuth(db);
    cache.set(db, auth);
  }
  return auth;
}
