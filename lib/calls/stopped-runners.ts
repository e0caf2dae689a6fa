import { and, inArray, like, sql } from "drizzle-orm";
import { calls } from "@/db/schema";
import { type Database, RUNNER_PREFIX } from "@/lib/db/client";
import { log } from "@/lib/observability/log";
import { recoverApprovedCalls } from "./recover-approved";
import { failInterruptedCalls } from "./recover-interrupted";
import { expireUnstartedCalls } from "./unstarted-calls";

/**
 * Calls a stopped Switchboard process left `running` or `approved` on a shared PostgreSQL. Each
 * process names its connections `switchboard:<id>` and a call's row records the name of the one
 * that runs it, or is to start it (calls.runner); a process has stopped when no session of that name
 * is left in pg_stat_activity (a live one always holds its event relay's LISTEN connection). Only a
 * runner found stopped at two sweeps in a row has its calls taken over — running ones ended as
 * failed, outcome unknown, like PGlite's at start-up; approved ones started here or, past their
 * start deadline, expired (recover-approved) — so a live process whose connections dropped for a
 * moment is not taken for a stopped one. Every sweep also expires any approved call past its
 * deadline, whoever was to start it.
 */
export const SWEEP_INTERVAL_MS = 30_000;

export class StoppedRunnerSweeper {
  /** Runners found stopped at the last sweep. */
  private suspects = new Set<string>();

  constructor(private readonly db: Database) {}

  /** One sweep; returns how many calls it ended or took over. */
  async sweep(): Promise<number> {
    const stopped = await this.stoppedRunners();
    const confirmed = stopped.filter((runner) => this.suspects.has(runner));
    this.suspects = new Set(stopped);
    const overdue = (await expireUnstartedCalls(this.db)).length;
    if (confirmed.length === 0) return overdue;
    const failed = await failInterruptedCalls(this.db, confirmed);
    return overdue + failed + (await recoverApprovedCalls(this.db, confirmed));
  }

  private async stoppedRunners(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ runner: calls.runner })
      .from(calls)
      .where(
        and(
          inArray(calls.status, ["running", "approved"]),
          like(calls.runner, `${RUNNER_PREFIX}%`),
          sql`${calls.runner} not in (select application_name from pg_stat_activity where application_name like ${`${RUNNER_PREFIX}%`})`,
        ),
      );
    return rows.flatMap((row) => (row.runner ? [row.runner] : []));
  }
}

/** Sweeps every SWEEP_INTERVAL_MS for the life of the process (PostgreSQL only). */
export function startStoppedRunnerSweeps(db: Database): void {
  const sweeper = new StoppedRunnerSweeper(db);
  const sweep = () =>
    sweeper
      .sweep()
      .then((ended) => {
        if (ended > 0) log.info(`${ended} call(s) of a stopped Switchboard ended or taken over`);
      })
      .catch((error: unknown) =>
        log.error(`sweeping calls of stopped processes failed: ${(error as Error).message}`),
      );
  void sweep();
  setInterval(sweep, SWEEP_INTERVAL_MS).unref();
}
