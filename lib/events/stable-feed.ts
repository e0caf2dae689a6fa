import { sql } from "drizzle-orm";
import type { DatabaseDriver, Queryable } from "@/lib/db/client";
import type { RecordedEvent } from "./event-types";
import { readEventRange } from "./history";

/*
 * The events every process can agree on: a watermark below which no id can still appear, and the
 * events up to it, in id order. The SSE streams read this, never the live bus, so a stream's
 * `id:` is exact: everything up to it was sent, nothing after it was.
 *
 * Why a watermark: ids come from one sequence, but transactions commit in any order — process A
 * may commit id 11 while B's id 10 is still in flight. A reader that took 11 and then resumed
 * "after 11" would never see 10. So an id is delivered only once every lower id is final
 * (committed or rolled back).
 *
 * How it is known, with two cheap reads and no lock on the write path:
 *  - Each event's id is taken after its transaction has an xid (next_event_id(), migration 0011).
 *  - A poll is one statement: the highest id its snapshot sees (M), its snapshot's xmin, and an
 *    xid of its own (X). Every id ≤ M was taken before the poll began, so by a transaction whose
 *    xid is < X.
 *  - A later poll whose xmin ≥ X proves every transaction with an xid below X has ended: every id
 *    ≤ M is committed (and visible to that poll) or will never exist. M becomes the watermark.
 * A snapshot's own xmax cannot stand in for X: it is "latest completed + 1", and transactions
 * with larger xids may be running unseen. The cost is one xid per poll, and polls run only while
 * a stream is open and events arrive. The price of the guarantee: while any write transaction
 * that began before an event is still open, that event waits for it (not lost, held back).
 *
 * Embedded PGlite is one process whose transactions hold its only connection: when a poll runs
 * nothing else is in flight, so whatever it sees is final at once.
 */

/** Every event with an id in (from, upTo], in id order. `upTo` is the new watermark. */
export type StableBatch = { from: number; upTo: number; events: RecordedEvent[] };
export type StableListener = (batch: StableBatch) => void;

export type StableFeedOptions = {
  /** Polls are at least this far apart (a burst of events costs a poll per interval, not per event). */
  pollIntervalMs?: number;
  /** Rows read per query when the watermark jumps far. */
  pageSize?: number;
  /** With nothing announced, the feed still looks this often (default 1 s). */
  idlePollMs?: number;
  onError?: (error: unknown) => void;
};

type Candidate = { maxId: number; xid: bigint };

export class StableFeed {
  private readonly listeners = new Set<StableListener>();
  private stable: number | undefined;
  /** Highest ids seen by earlier polls, each waiting for the transactions older than its poll. */
  private candidates: Candidate[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the pending timer fires: a nudge brings an idle wait forward to now. */
  private timerDueAt = 0;
  private polling: Promise<void> | undefined;
  private nudged = false;
  private lastPollAt = 0;
  private failures = 0;
  /** Polls in a row that moved nothing (an old transaction still open): the next waits longer. */
  private idlePolls = 0;
  private pollCount = 0;
  private stopped = false;
  /** Bumped when the last subscriber leaves: a poll begun before that is discarded. */
  private generation = 0;
  private readonly pollIntervalMs: number;
  private readonly pageSize: number;
  private readonly idlePollMs: number;

  constructor(
    private readonly db: Queryable,
    private readonly driver: DatabaseDriver,
    private readonly options: StableFeedOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 4;
    this.pageSize = options.pageSize ?? 1_000;
    this.idlePollMs = options.idlePollMs ?? 1_000;
  }

  /** The watermark: every event with an id up to it is final and has been handed to subscribers. */
  get watermark(): number | undefined {
    return this.stable;
  }

  /**
   * Follows the feed from the current watermark, which is returned: the listener gets every
   * batch after it. The first subscriber waits for the first watermark.
   */
  async subscribe(listener: StableListener): Promise<{ watermark: number; unsubscribe: () => void }> {
    while (this.stable === undefined) {
      if (this.stopped) throw new Error("The event feed has stopped (its database closed).");
      this.nudge();
      await (this.polling ?? new Promise((r) => setTimeout(r, this.pollIntervalMs)));
    }
    this.listeners.add(listener);
    // The poll that set the first watermark scheduled nothing (nobody listened yet): without this
    // the feed would sleep until the next event published here, and a resumed stream with nothing
    // new to come would never move past its watermark.
    this.schedule();
    return {
      watermark: this.stable,
      unsubscribe: () => {
        this.listeners.delete(listener);
        // Nobody follows: stop polling, and let the next subscriber start from a fresh watermark
        // rather than from events that passed unwatched. A poll under way belongs to the old
        // generation: its result must not become the new first watermark (it may be stale).
        if (this.listeners.size === 0) {
          this.stable = undefined;
          this.candidates = [];
          this.generation++;
        }
      },
    };
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** How many polls have run: tests wait for a few to show that something is held back. */
  get polls(): number {
    return this.pollCount;
  }

  /** Stops polling for good (its database is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Something may have committed (an event was published here): poll soon, if anyone listens. */
  nudge(): void {
    this.nudged = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.polling || this.stopped) return;
    if (this.stable !== undefined && this.listeners.size === 0) return;
    // Nothing announced: still look once a second, for events whose announcement was lost (a
    // relay that is down or reconnecting) — a stream must not depend on it to move on.
    const interval = this.nudged
      ? this.pollIntervalMs
      : this.candidates.length === 0
        ? this.idlePollMs
        : Math.min(this.pollIntervalMs * 2 ** this.idlePolls, 100);
    // Back off while the database fails (a stream open through an outage must not spin).
    const wait = Math.max(0, this.lastPollAt + interval - Date.now()) + backoffMs(this.failures);
    // A timer already set stays unless this one is due sooner: the nudge of a new event must not
    // wait out the idle poll that was pending (a lone event would reach streams up to 1 s late).
    if (this.timer) {
      if (Date.now() + wait >= this.timerDueAt) return;
      clearTimeout(this.timer);
    }
    this.timerDueAt = Date.now() + wait;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        this.schedule();
      });
    }, wait);
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    this.nudged = false;
    this.lastPollAt = Date.now();
    this.pollCount++;
    const generation = this.generation;
    try {
      const { maxId, xmin, xid } = await this.probe();
      if (generation !== this.generation) return; // the feed was reset meanwhile
      let confirmed = this.driver === "pglite" ? maxId : undefined;
      while (this.candidates[0] && xmin !== undefined && this.candidates[0].xid <= xmin) {
        confirmed = this.candidates.shift()?.maxId;
      }
      const highest = this.candidates.at(-1)?.maxId ?? Math.max(this.stable ?? 0, confirmed ?? 0);
      if (xid !== undefined && (maxId > highest || this.stable === undefined)) {
        this.candidates.push({ maxId, xid });
      }
      const before = this.stable;
      if (confirmed !== undefined) await this.advance(confirmed);
      this.idlePolls = this.stable === before ? this.idlePolls + 1 : 0;
      this.failures = 0;
    } catch (error) {
      this.failures++;
      this.nudged = true;
      this.options.onError?.(error);
    }
  }

  /** The poll's one statement (see the module comment); on PGlite no xid is needed. */
  private async probe(): Promise<{ maxId: number; xmin?: bigint; xid?: bigint }> {
    const maxId = sql`(select coalesce(max(id), 0) from events)`;
    const result = await this.db.execute(
      this.driver === "pglite"
        ? sql`select ${maxId} as max_id`
        : sql`select ${maxId} as max_id, pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
            pg_current_xact_id()::text as xid`,
    );
    const row = rowsOf(result)[0] as { max_id: number | string; xmin?: string; xid?: string };
    return {
      maxId: Number(row.max_id),
      ...(row.xmin === undefined ? {} : { xmin: BigInt(row.xmin) }),
      ...(row.xid === undefined ? {} : { xid: BigInt(row.xid) }),
    };
  }

  /** Reads the events up to the new watermark and hands them out, page by page. */
  private async advance(upTo: number): Promise<void> {
    if (this.stable === undefined) {
      // The first watermark: what came before it is history, read from the table by whoever wants it.
      this.stable = upTo;
      return;
    }
    while (this.stable < upTo) {
      const from = this.stable;
      const generation = this.generation;
      const page = await readEventRange(this.db, { afterId: from, upTo, limit: this.pageSize });
      if (generation !== this.generation) return; // reset meanwhile: nobody wants this page
      const last = page.length < this.pageSize ? upTo : (page.at(-1)?.id ?? upTo);
      this.stable = last;
      const batch: StableBatch = { from, upTo: last, events: page };
      for (const listener of [...this.listeners]) {
        try {
          listener(batch);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
    }
  }
}

const backoffMs = (failures: number) => (failures === 0 ? 0 : Math.min(50 * 2 ** failures, 5_000));

/** postgres.js answers a row list, PGlite `{ rows }`. */
function rowsOf(result: unknown): unknown[] {
  return Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
}
