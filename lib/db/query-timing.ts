import { PglitePreparedQuery } from "drizzle-orm/pglite/session";
import { PostgresJsPreparedQuery } from "drizzle-orm/postgres-js/session";
import { processSingleton } from "@/lib/process-singleton";

/**
 * How long each statement the application runs through drizzle takes, for
 * `switchboard_db_query_duration_seconds`. Neither driver reports a statement's end (drizzle's
 * logger and postgres.js `debug` fire before it runs), so the prepared-query classes of both
 * drivers are wrapped once: every select, insert, update and delete drizzle runs — in or out of a
 * transaction — passes through their `execute`/`all`. The call journal's batches (plain-statement.ts)
 * are timed there, one sample per round trip. The time includes waiting for a pooled connection,
 * which is what a request feels. Other raw client use (LISTEN/NOTIFY, migrations) is not timed.
 *
 * With no observer (metrics off, tests) the cost is one property read per statement.
 */

export type QueryOperation = "select" | "insert" | "update" | "delete" | "other";
export type QueryObserver = (operation: QueryOperation, seconds: number) => void;

const state = processSingleton("QueryTiming", () => ({ observer: undefined as QueryObserver | undefined }));

/** The process's one listener (the metrics); undefined stops timing. */
export function observeQueryDurations(observer: QueryObserver | undefined): void {
  state.observer = observer;
}

/**
 * A statement's verb, from its first word, a bounded label and never its text. A `with` statement
 * is the first write among its parts (the journal's insert-then-select), else a select.
 */
export function queryOperation(sqlText: string): QueryOperation {
  const verb = /^\s*\(?\s*([a-z]+)/i.exec(sqlText)?.[1]?.toLowerCase();
  if (verb === "with") {
    const write = /\b(insert|update|delete)\b/i.exec(sqlText)?.[1]?.toLowerCase() as
      | QueryOperation
      | undefined;
    return write ?? "select";
  }
  return verb === "select" || verb === "insert" || verb === "update" || verb === "delete" ? verb : "other";
}

/** Runs `run`, timed as `operation` when something observes (a statement or a batch of them). */
export function timedQuery<T>(operation: () => QueryOperation, run: () => Promise<T>): Promise<T> {
  const observer = state.observer;
  if (!observer) return run();
  const started = performance.now();
  return run().finally(() => observer(operation(), (performance.now() - started) / 1000));
}

const WRAPPED = Symbol.for("switchboard.queryTiming");

type PreparedQueryClass = { prototype: object };

/** Wraps the drivers' prepared queries (idempotent: each bundled copy of drizzle once). */
export function timePreparedQueries(): void {
  for (const preparedQuery of [PglitePreparedQuery, PostgresJsPreparedQuery] as PreparedQueryClass[]) {
    const proto = preparedQuery.prototype as Record<string | symbol, unknown>;
    if (proto[WRAPPED]) continue;
    proto[WRAPPED] = true;
    for (const method of ["execute", "all"]) {
      const original = proto[method] as (
        this: { queryString: string },
        ...args: unknown[]
      ) => Promise<unknown>;
      proto[method] = function timed(this: { queryString: string }, ...args: unknown[]) {
        return timedQuery(
          () => queryOperation(this.queryString),
          () => original.apply(this, args),
        );
      };
    }
  }
}
