import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { approvals } from "@/db/schema";
import { resolveActor } from "@/lib/auth/actor";
import type { Database } from "@/lib/db/client";
import { observeQueryDurations } from "@/lib/db/query-timing";
import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { processEventHub } from "@/lib/events/record-event";
import { getDatabase } from "@/lib/runtime/process-db";
import { startEventMetrics } from "./event-metrics";
import { processMetrics } from "./metrics";

/**
 * GET /metrics: off unless SWITCHBOARD_METRICS=on (then a 404, as if it did not exist). The
 * counts cover every workspace on the instance, so a scraper shows either the scrape token
 * (SWITCHBOARD_METRICS_TOKEN) or an admin API key that holds instance authority (an owner's key):
 * a workspace admin's key would otherwise read other workspaces' server and agent names.
 */

/** Starts the metrics when they are on (idempotent): the runtime calls it at start. */
export function startProcessMetrics(): boolean {
  if (!readEnv().metrics.enabled) return false;
  startEventMetrics(processEventHub);
  const { dbQueryDuration } = processMetrics();
  observeQueryDurations((operation, seconds) => dbQueryDuration.observe({ operation }, seconds));
  return true;
}

/**
 * The scrape. The database is asked only for an API key and the pending approvals, so during a
 * database outage a token scrape still answers — memory, connections and call failures are what
 * an operator needs then — with the pending count NaN (a gap on the graph, not a stale number).
 */
export async function metricsResponse(
  req: Request,
  database: () => Promise<Database> = async () => (await getDatabase()).db,
): Promise<Response> {
  if (!startProcessMetrics())
    throw new AppError("not_found", "Metrics are off (set SWITCHBOARD_METRICS=on).");
  await assertMayScrape(database, req.headers);
  const metrics = processMetrics();
  metrics.approvalsPending.set(await countPendingApprovals(database).catch(() => Number.NaN));
  return new Response(await metrics.registry.metrics(), {
    headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store" },
  });
}

const HOW = "Send Authorization: Bearer with SWITCHBOARD_METRICS_TOKEN or an instance owner's admin API key.";

async function countPendingApprovals(database: () => Promise<Database>): Promise<number> {
  const db = await database();
  const [row] = await db.select({ pending: count() }).from(approvals).where(eq(approvals.status, "pending"));
  return row?.pending ?? 0;
}

async function assertMayScrape(database: () => Promise<Database>, headers: Headers): Promise<void> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "")?.[1];
  if (!bearer && !headers.get("x-api-key"))
    throw new AppError("unauthenticated", `Metrics need a token. ${HOW}`);
  const { token } = readEnv().metrics;
  if (token && bearer && sameSecret(bearer, token)) return;
  // Not the scrape token: an API key, or nothing (a wrong key is a 401 from resolveActor).
  const actor = await resolveActor(await database(), headers).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "unauthenticated")
      throw new AppError("unauthenticated", `That token is not valid for metrics. ${HOW}`);
    throw error;
  });
  if (actor.kind !== "api_key" || actor.role !== "admin" || !actor.instanceOwner)
    throw new AppError("forbidden", `This key may not read metrics. ${HOW}`);
}

/** Constant-time over equal-length digests, so neither the content nor the length leaks. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
