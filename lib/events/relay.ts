import type { PGlite } from "@electric-sql/pglite";
import { asc, gt, max } from "drizzle-orm";
import type postgres from "postgres";
import { events } from "@/db/schema";
import type { DatabaseHandle } from "@/lib/db/client";
import { log } from "@/lib/observability/log";
import type { RecordedEvent } from "./event-types";
import { readEventsByIds } from "./history";

/** What the relay needs of the hub it feeds (the hub owns it; a type here keeps the two acyclic). */
export type RelayTarget = {
  readonly lastPublishedId: number;
  hasPublished(id: number): boolean;
  publish(event: RecordedEvent, source: "relay"): boolean;
};

/** The NOTIFY channel; payloads are `{"id":…,"tenantId":"…"}` — never the event (8000-byte limit). */
export const EVENT_CHANNEL = "switchboard_events";

export type EventRelayOptions = {
  /**
   * How often to look for events whose notification never arrived (a NOTIFY lost with a dropped
   * connection, a recorder that crashed between INSERT and NOTIFY). Notifications carry the
   * latency; the sweep only guarantees completeness.
   */
  sweepIntervalMs?: number;
  /** Notifications arriving within this window are fetched with one query. */
  batchDelayMs?: number;
};

/**
 * Ids allocated by concurrent writers can commit out of order (id 9 after id 10), so a catch-up
 * re-reads this many ids below the highest one seen and skips those already published.
 */
const LOOKBACK_IDS = 1_000;
const FETCH_CHUNK = 500;

type Unlisten = () => Promise<void>;

/**
 * Delivers the events other processes record on the shared database to this process's hub:
 * LISTEN on the events channel, fetch notified ids this hub has not published (batched, in id
 * order), and catch up from the last seen id whenever the LISTEN connection is re-established.
 * The database is the only shared state; NOTIFY payloads are ids, the table holds the events.
 */
export class EventRelay {
  private unlisten: Unlisten | undefined;
  private baseline = 0;
  private readonly pendingIds = new Set<number>();
  private batchTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Fetches and catch-ups run one after another, so publication stays in order. */
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private listenCount = 0;
  private lastErrorLog = 0;
  private readonly sweepIntervalMs: number;
  private readonly batchDelayMs: number;

  constructor(
    private readonly hub: RelayTarget,
    readonly handle: DatabaseHandle,
    options: EventRelayOptions = {},
  ) {
    this.sweepIntervalMs = options.sweepIntervalMs ?? 10_000;
    this.batchDelayMs = options.batchDelayMs ?? 2;
  }

  /** How many times LISTEN has been (re-)established: tests wait for a reconnect with it. */
  get listens(): number {
    return this.listenCount;
  }

  async start(): Promise<void> {
    await this.listen();
    // Only what is recorded from now on is news; history is for readers of the table.
    const [row] = await this.handle.db.select({ last: max(events.id) }).from(events);
    this.baseline = Math.max(this.baseline, Number(row?.last ?? 0));
    // PGlite has no other process and no connection to lose: nothing to sweep for.
    if (this.handle.driver === "pglite") return;
    this.sweepTimer = setInterval(() => this.sweep(), this.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.batchTimer);
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.().catch(() => {});
    await this.chain;
  }

  /**
   * Publishes every event after the last one seen that this hub has not published yet; returns
   * how many. Runs on every re-LISTEN and on the sweep.
   */
  catchUp(): Promise<number> {
    return this.enqueue(async () => {
      let published = 0;
      let from = Math.max(this.baseline, this.hub.lastPublishedId - LOOKBACK_IDS);
      for (;;) {
        const rows = await this.handle.db
          .select({ id: events.id })
          .from(events)
          .where(gt(events.id, from))
          .orderBy(asc(events.id))
          .limit(FETCH_CHUNK * 2);
        const missing = rows.map((r) => r.id).filter((id) => !this.hub.hasPublished(id));
        published += await this.publishIds(missing);
        if (rows.length < FETCH_CHUNK * 2) return published;
        from = rows[rows.length - 1]?.id ?? from;
      }
    });
  }

  private async listen(): Promise<void> {
    const onNotify = (payload: string) => this.onNotify(payload);
    if (this.handle.driver === "pglite") {
      // One process per PGlite folder: LISTEN here only hears this process's own NOTIFYs, which is
      // what delivers events recorded inside a transaction once it commits.
      const unlisten = await (this.handle.client as PGlite).listen(EVENT_CHANNEL, onNotify);
      this.listenCount++;
      this.unlisten = unlisten;
      return;
    }
    const sql = this.handle.client as postgres.Sql;
    // postgres.js re-LISTENs on a new connection after the old one drops and calls onlisten again:
    // notifications sent in between are lost, so every re-LISTEN catches up from the table.
    const { unlisten } = await sql.listen(EVENT_CHANNEL, onNotify, () => {
      this.listenCount++;
      if (this.listenCount > 1 && !this.stopped) void this.catchUp().catch((e) => this.logError(e));
    });
    this.unlisten = unlisten;
  }

  private onNotify(payload: string): void {
    if (this.stopped) return;
    const id = parseNotification(payload);
    if (id === undefined || this.hub.hasPublished(id)) return;
    this.pendingIds.add(id);
    this.batchTimer ??= setTimeout(() => {
      this.batchTimer = undefined;
      const ids = [...this.pendingIds];
      this.pendingIds.clear();
      void this.enqueue(() => this.publishIds(ids)).catch((error) => {
        this.logError(error);
        // The ids are in the table: the next sweep publishes them.
      });
    }, this.batchDelayMs);
  }

  /** Fetches the ids (skipping ones published meanwhile) and publishes them in id order. */
  private async publishIds(ids: number[]): Promise<number> {
    const wanted = ids.filter((id) => !this.hub.hasPublished(id)).sort((a, b) => a - b);
    let published = 0;
    for (let i = 0; i < wanted.length; i += FETCH_CHUNK) {
      const rows = await readEventsByIds(this.handle.db, wanted.slice(i, i + FETCH_CHUNK));
      for (const event of rows) if (this.hub.publish(event, "relay")) published++;
    }
    return published;
  }

  private sweep(): void {
    if (this.stopped) return;
    void this.catchUp().catch((error) => this.logError(error));
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const result = this.chain.then(() => (this.stopped ? (0 as T) : work()));
    this.chain = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** At most one line a minute: a database outage must not flood the log. */
  private logError(error: unknown): void {
    if (this.stopped) return;
    const now = Date.now();
    if (now - this.lastErrorLog < 60_000) return;
    this.lastErrorLog = now;
    log.error(`event relay: ${(error as Error).message}`);
  }
}

function parseNotification(payload: string): number | undefined {
  try {
    const id = (JSON.parse(payload) as { id?: unknown }).id;
    return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
