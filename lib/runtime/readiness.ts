import "server-only";
import { sql } from "drizzle-orm";
import { databaseUnavailableCode } from "@/lib/db/errors";
import { processEventHub } from "@/lib/events/record-event";
import { processSingleton } from "@/lib/process-singleton";
import { peekDatabase } from "@/lib/runtime/process-db";
import { isShuttingDown } from "@/lib/runtime/shutdown-state";

/**
 * Whether this process can serve: its database answers, its event relay listens, its connection
 * pool runs. Liveness (`/api/v1/health`) never asks this — a process waiting for its database is
 * alive, and restarting it would not bring the database back. Readiness (`/api/v1/health/ready`)
 * does, so a load balancer sends no traffic to a process that would only answer 503.
 * start.ts reports what it has started and why it has not; the database is probed on each ask.
 * The relay counts as up while it runs: after an outage postgres.js re-establishes its LISTEN by
 * itself (within the reconnect backoff, lib/db/client.ts) and the relay catches up from the table,
 * so in between the database check is the one that fails.
 */

export type Dependency = "database" | "relay" | "pool";
export type DependencyCheck = { ok: boolean; reason?: string };
export type ReadinessStatus = "starting" | "ready" | "degraded" | "stopping";
export type Readiness = { status: ReadinessStatus; checks: Record<Dependency, DependencyCheck> };

type StartupState = {
  started: Record<Dependency, boolean>;
  /** Why start-up did not get further at its last attempt (a sentence for a person). */
  problem: { dependency: Dependency; reason: string } | undefined;
  /** Once ready, a failing check is a degradation, not a slow start. */
  wasReady: boolean;
};

const state = processSingleton<StartupState>("Readiness", () => ({
  started: { database: false, relay: false, pool: false },
  problem: undefined,
  wasReady: false,
}));

/** A probe that hangs is an answer too: the database is not serving. */
const PROBE_TIMEOUT_MS = 2_000;

export function reportStarted(dependency: Dependency): void {
  state.started[dependency] = true;
  if (state.problem?.dependency === dependency) state.problem = undefined;
}

export function reportStartupProblem(dependency: Dependency, error: unknown): void {
  state.problem = { dependency, reason: describeProblem(dependency, error) };
}

export function isStarted(): boolean {
  return state.started.database && state.started.relay && state.started.pool;
}

export async function checkReadiness(): Promise<Readiness> {
  const database = await probeDatabase();
  const checks: Record<Dependency, DependencyCheck> = {
    database,
    relay: checkStarted("relay", database),
    pool: checkStarted("pool", database),
  };
  // Draining for a shutdown: a load balancer must stop sending calls, however healthy the rest is.
  if (isShuttingDown()) return { status: "stopping", checks };
  const ready = Object.values(checks).every((check) => check.ok);
  if (ready) state.wasReady = true;
  return { status: ready ? "ready" : state.wasReady ? "degraded" : "starting", checks };
}

async function probeDatabase(): Promise<DependencyCheck> {
  const opening = peekDatabase();
  if (!state.started.database || !opening) return notStarted("database");
  let timer: NodeJS.Timeout | undefined;
  try {
    const { db } = await opening;
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error("no answer"), { code: "CONNECT_TIMEOUT" })),
          PROBE_TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: describeProblem("database", error) };
  } finally {
    clearTimeout(timer);
  }
}

function checkStarted(dependency: "relay" | "pool", database: DependencyCheck): DependencyCheck {
  if (dependency === "relay" && state.started.relay && !processEventHub.hasRelay)
    return { ok: false, reason: "The event relay has stopped." };
  if (state.started[dependency]) return { ok: true };
  if (state.problem?.dependency === dependency) return notStarted(dependency);
  return {
    ok: false,
    reason: database.ok ? `The ${nameOf(dependency)} is starting.` : "Waiting for the database.",
  };
}

function notStarted(dependency: Dependency): DependencyCheck {
  if (state.problem?.dependency === dependency) return { ok: false, reason: state.problem.reason };
  return { ok: false, reason: `The ${nameOf(dependency)} is starting.` };
}

const nameOf = (dependency: Dependency) =>
  dependency === "pool" ? "connection pool" : dependency === "relay" ? "event relay" : "database";

/**
 * A sentence for whoever reads the probe (it needs no credential): what is wrong and that it is
 * retried, never an address, a path or SQL — the server log has those.
 */
function describeProblem(dependency: Dependency, error: unknown): string {
  const code = databaseUnavailableCode(error);
  if (code) return `The database is not reachable (${code}); trying again.`;
  if (hasCode(error, "SWITCHBOARD_DATA_DIR_LOCKED"))
    return "The data folder is in use by another Switchboard process; trying again until it stops.";
  return `The ${nameOf(dependency)} did not start (the reason is in the server log); trying again.`;
}

function hasCode(error: unknown, code: string): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === code) return true;
  }
  return false;
}
