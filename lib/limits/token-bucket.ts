import { and, eq, sql } from "drizzle-orm";
import { rateBuckets } from "@/db/schema";
import type { Database } from "@/lib/db/client";

/**
 * Calls per minute as a token bucket in one row (rate_buckets): it holds up to `perMinute` tokens,
 * refills at perMinute/60 a second, and a call takes one. The refill and the take are one
 * conditional upsert, atomic in the database — so every process of a PostgreSQL deployment draws
 * from the same bucket, and PGlite (one process) behaves the same. rate-limiter-flexible's
 * Postgres store wants a `pg`/knex client, not our postgres.js or PGlite, hence this one statement.
 * Time is the database's clock (`now()`), never a process's: processes' clocks may disagree.
 */

export type BucketTake = { taken: true } | { taken: false; retryAfterSeconds: number };

export async function takeToken(
  db: Database,
  params: { tenantId: string; key: string; perMinute: number },
): Promise<BucketTake> {
  const cap = params.perMinute;
  const perSecond = cap / 60;
  const available = sql`least(${cap}::float8, ${rateBuckets.tokens} + extract(epoch from (now() - ${rateBuckets.refilledAt})) * ${perSecond}::float8)`;
  const taken = await db
    .insert(rateBuckets)
    .values({ tenantId: params.tenantId, key: params.key, tokens: cap - 1, refilledAt: sql`now()` })
    .onConflictDoUpdate({
      target: [rateBuckets.tenantId, rateBuckets.key],
      set: { tokens: sql`${available} - 1`, refilledAt: sql`now()` },
      // An empty bucket is left as it is: a refused call takes nothing, and its refill keeps running.
      setWhere: sql`${available} >= 1`,
    })
    .returning({ tokens: rateBuckets.tokens });
  if (taken.length > 0) return { taken: true };
  const [row] = await db
    .select({ available: sql<number>`${available}` })
    .from(rateBuckets)
    .where(and(eq(rateBuckets.tenantId, params.tenantId), eq(rateBuckets.key, params.key)));
  const missing = 1 - Number(row?.available ?? 0);
  return { taken: false, retryAfterSeconds: Math.max(1, Math.ceil(missing / perSecond)) };
}

/**
 * Gives back a token taken for a call that another limit then refused, so one refusal does not
 * also spend the first bucket's allowance. Never above the bucket's size.
 */
export async function returnToken(
  db: Database,
  params: { tenantId: string; key: string; perMinute: number },
): Promise<void> {
  await db
    .update(rateBuckets)
    .set({ tokens: sql`least(${params.perMinute}::float8, ${rateBuckets.tokens} + 1)` })
    .where(and(eq(rateBuckets.tenantId, params.tenantId), eq(rateBuckets.key, params.key)));
}
