import { and, count, eq, min, sql } from "drizzle-orm";
import { approvals, calls } from "@/db/schema";
import type { CallTarget, Decision } from "@/lib/calls/call-decision";
import type { Requester } from "@/lib/calls/requester";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { decisionCache } from "@/lib/policy/decision-cache";
import { countInFlight, holdInFlight } from "./in-flight";
import { getLimitsPolicy, principalLimits, serverLimits } from "./limits-policy";
import { returnToken, takeToken } from "./token-bucket";

/**
 * Whether a call the policy would let through (now or after an approval) is over a limit — checked
 * after the approval gate has decided and before anything is recorded or sent downstream, so a
 * refusal costs the downstream server and the approval queue nothing.
 *
 * Order: the counts first (calls in flight, calls waiting for approval), then the buckets, so a call
 * refused for its concurrency takes no token; a call the principal's bucket refuses gives the
 * server's token back.
 *
 * Calls in flight: this process's own are counted exactly (lib/limits/in-flight.ts: a call that runs
 * now is held from this check to its end), other processes' are their `running` rows in the calls
 * table — written before they call downstream — so calls arriving at two processes at the same
 * instant may both see the last slot (a bound passed by the arrivals of one moment, never by a
 * leaked counter). Principal limits bind principals (agents); server limits bind every caller,
 * operators included.
 */

export type LimitRefusal = { reason: string; retryAfterSeconds: number };
/** A refusal, or the call admitted: `release` ends its hold on a slot in flight (once it has run). */
export type LimitCheck = { refusal: LimitRefusal | undefined; release: () => void };

const CHANGE_HINT = "A workspace admin can change the limits in Settings → Limits.";

export async function checkCallLimits(
  db: Database,
  params: {
    tenantId: string;
    callId: string;
    requester: Requester;
    target: CallTarget | undefined;
    decision: Decision;
  },
): Promise<LimitCheck> {
  const { tenantId, callId, requester, target, decision } = params;
  if (decision.kind !== "allow" || !target)
    return { refusal: await findRefusal(db, { ...params, here: undefined }), release: () => {} };
  // Counted and held in one synchronous step, before any await: calls of this process arriving
  // together see each other. Held whether or not a limit applies now, so one set later counts it.
  const here = {
    principal: countInFlight({ tenantId, requesterId: requester.id }),
    server: countInFlight({ tenantId, serverId: target.serverId }),
  };
  const release = holdInFlight(callId, { tenantId, requesterId: requester.id, serverId: target.serverId });
  try {
    const refusal = await findRefusal(db, { ...params, here });
    if (refusal) release();
    return { refusal, release };
  } catch (error) {
    release();
    throw error;
  }
}

async function findRefusal(
  db: Database,
  params: {
    tenantId: string;
    requester: Requester;
    target: CallTarget | undefined;
    decision: Decision;
    /** This process's calls in flight, counted before this one was held (a call that runs now). */
    here: { principal: number; server: number } | undefined;
  },
): Promise<LimitRefusal | undefined> {
  const { tenantId, requester, target, decision, here } = params;
  if (decision.kind === "deny") return undefined;
  // Per process, dropped by the `policy.changed` event a change records (lib/policy/decision-cache).
  const policy = await decisionCache.get(tenantId, "limits-policy", () => getLimitsPolicy(db, { tenantId }));
  const principal = requester.kind === "principal" ? principalLimits(policy, requester.name) : undefined;
  const server = target ? serverLimits(policy, target.serverName) : undefined;
  const who = `The principal "${requester.name}"`;

  if (decision.kind === "needs_approval" && principal?.pendingApprovals != null) {
    const { waiting, firstExpiry } = await countPending(db, { tenantId, requesterId: requester.id });
    if (waiting >= principal.pendingApprovals) {
      const seconds = firstExpiry ? Math.ceil((firstExpiry.getTime() - Date.now()) / 1000) : 60;
      return {
        reason: `${who} already has ${waiting} calls waiting for approval, its limit (${principal.pendingApprovals}); a new one can wait once one of them is decided or expires. ${CHANGE_HINT}`,
        retryAfterSeconds: Math.max(1, seconds),
      };
    }
  }
  if (here && principal?.concurrentCalls != null) {
    const running =
      here.principal + (await countRunningElsewhere(db, { tenantId, requesterId: requester.id }));
    if (running >= principal.concurrentCalls)
      return {
        reason: `${who} has ${running} calls in flight, its limit (${principal.concurrentCalls}); try again when one ends. ${CHANGE_HINT}`,
        retryAfterSeconds: 1,
      };
  }
  if (here && target && server?.concurrentCalls != null) {
    const running = here.server + (await countRunningElsewhere(db, { tenantId, serverId: target.serverId }));
    if (running >= server.concurrentCalls)
      return {
        reason: `The server "${target.serverName}" has ${running} calls in flight, its limit (${server.concurrentCalls}); try again when one ends. ${CHANGE_HINT}`,
        retryAfterSeconds: 1,
      };
  }
  const serverBucket =
    target && server?.callsPerMinute != null
      ? { tenantId, key: `server:${target.serverId}`, perMinute: server.callsPerMinute }
      : undefined;
  if (target && serverBucket) {
    const take = await takeToken(db, serverBucket);
    if (!take.taken)
      return {
        reason: `The server "${target.serverName}" is over its limit of ${serverBucket.perMinute} calls per minute; try again in ${take.retryAfterSeconds} s. ${CHANGE_HINT}`,
        retryAfterSeconds: take.retryAfterSeconds,
      };
  }
  if (principal?.callsPerMinute != null) {
    const take = await takeToken(db, {
      tenantId,
      key: `principal:${requester.id}`,
      perMinute: principal.callsPerMinute,
    });
    if (!take.taken) {
      // The call does not reach the server: its token goes back.
      if (serverBucket) await returnToken(db, serverBucket);
      return {
        reason: `${who} is over its limit of ${principal.callsPerMinute} calls per minute; try again in ${take.retryAfterSeconds} s. ${CHANGE_HINT}`,
        retryAfterSeconds: take.retryAfterSeconds,
      };
    }
  }
  return undefined;
}

/** Running calls other processes run (this process's own are counted in memory: in-flight.ts). */
async function countRunningElsewhere(
  db: Database,
  params: { tenantId: string; requesterId?: string; serverId?: string },
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(calls)
    .where(
      and(
        eq(calls.tenantId, params.tenantId),
        eq(calls.status, "running"),
        sql`${calls.runner} is distinct from current_setting('application_name')`,
        params.requesterId !== undefined ? eq(calls.requesterId, params.requesterId) : undefined,
        params.serverId !== undefined ? eq(calls.serverId, params.serverId) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

async function countPending(
  db: Database,
  params: { tenantId: string; requesterId: string },
): Promise<{ waiting: number; firstExpiry: Date | null }> {
  const [row] = await db
    .select({ n: count(), firstExpiry: min(approvals.expiresAt) })
    .from(calls)
    .innerJoin(approvals, eq(approvals.callId, calls.id))
    .where(
      and(
        eq(calls.tenantId, params.tenantId),
        eq(calls.requesterId, params.requesterId),
        eq(calls.status, "pending_approval"),
      ),
    );
  const expiry = row?.firstExpiry;
  return { waiting: Number(row?.n ?? 0), firstExpiry: expiry ? new Date(expiry) : null };
}

/** The refusal the caller gets (429 on REST, a JSON-RPC error on the gateway), naming the recorded call. */
export function refusedOverLimit(refusal: LimitRefusal, callId: string): AppError {
  return new AppError("rate_limited", `${refusal.reason} (call ${callId})`, {
    retryAfterSeconds: refusal.retryAfterSeconds,
  });
}
