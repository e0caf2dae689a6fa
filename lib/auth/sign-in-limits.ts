import { eq, sql } from "drizzle-orm";
import { signInLimits } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/*
 * How many passwords may be tried: 5 failures per account and 20 per client address in a window of
 * 15 minutes. An attempt is reserved *before* its password is checked, by one conditional upsert
 * per counter (the row lock makes concurrent reservations queue, on PostgreSQL and PGlite, in every
 * process sharing the database): once a counter is full, the next request is refused without
 * checking anything, however many arrive at once. A successful sign-in gives its reservation back,
 * so only failures use the allowance.
 */

const WINDOW_SECONDS = 15 * 60;
/** A constant, written into the SQL as a literal (no parameter type to infer). */
const windowLength = sql.raw(`interval '${WINDOW_SECONDS} seconds'`);

const rules = {
  account: { limit: 5, refusal: "Too many failed sign-ins for this account" },
  address: { limit: 20, refusal: "Too many failed sign-ins from this address" },
} as const;

type Rule = keyof typeof rules;

export type SignInReservation = { release: () => Promise<void> };

/** Reserves one attempt for the email and (when known) the address, or throws `rate_limited`. */
export async function reserveSignInAttempt(
  db: Queryable,
  params: { email: string; address: string | null },
): Promise<SignInReservation> {
  const keys: Array<[Rule, string]> = [["account", `account:${params.email}`]];
  if (params.address) keys.unshift(["address", `address:${params.address}`]);
  const reserved: string[] = [];
  const release = async () => {
    for (const key of reserved) await releaseAttempt(db, key);
  };
  for (const [rule, key] of keys) {
    if (await reserveAttempt(db, key, rules[rule].limit)) {
      reserved.push(key);
      continue;
    }
    // Refused without a check: what was reserved for the other counter is not used either.
    await release();
    const retryAfterSeconds = await secondsUntilReset(db, key);
    const minutes = Math.ceil(retryAfterSeconds / 60);
    throw new AppError(
      "rate_limited",
      `${rules[rule].refusal}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      { retryAfterSeconds },
    );
  }
  return { release };
}

/** One conditional upsert: a fresh window, or one more attempt while the counter has room. */
async function reserveAttempt(db: Queryable, key: string, limit: number): Promise<boolean> {
  const expired = sql`${signInLimits.windowStartedAt} <= now() - ${windowLength}`;
  const rows = await db
    .insert(signInLimits)
    .values({ key, attempts: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: signInLimits.key,
      set: {
        attempts: sql`case when ${expired} then 1 else ${signInLimits.attempts} + 1 end`,
        windowStartedAt: sql`case when ${expired} then now() else ${signInLimits.windowStartedAt} end`,
      },
      setWhere: sql`${expired} or ${signInLimits.attempts} < ${limit}`,
    })
    .returning({ attempts: signInLimits.attempts });
  return rows.length > 0;
}

async function releaseAttempt(db: Queryable, key: string): Promise<void> {
  await db
    .update(signInLimits)
    .set({ attempts: sql`greatest(${signInLimits.attempts} - 1, 0)` })
    .where(eq(signInLimits.key, key));
}

async function secondsUntilReset(db: Queryable, key: string): Promise<number> {
  const [row] = await db
    .select({
      seconds: sql<number>`ceil(extract(epoch from ${signInLimits.windowStartedAt} + ${windowLength} - now()))::int`,
    })
    .from(signInLimits)
    .where(eq(signInLimits.key, key));
  return Math.min(WINDOW_SECONDS, Math.max(1, row?.seconds ?? WINDOW_SECONDS));
}
