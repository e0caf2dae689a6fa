import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { events } from "@/db/schema";
import type { DatabaseHandle, Queryable } from "@/lib/db/client";
import { log } from "@/lib/observability/log";
import { logRecordedEvent } from "@/lib/observability/log-events";
import { eventSchema, type RecordedEvent, type SwitchboardEvent } from "./event-types";
import { RecentIds } from "./recent-ids";
import { EVENT_CHANNEL, EventRelay, type EventRelayOptions } from "./relay";

export type EventListener = (event: RecordedEvent) => void;

/**
 * One process's event bus: records (persist, then NOTIFY, then publish), fans out to subscribers,
 * and — with a relay started — also publishes the events other processes record. Each event is
 * published at most once per hub, whichever way it arrives. A process has one hub (see
 * record-event.ts); tests create several to play several processes.
 */
export class EventHub {
  private readonly listeners = new Set<EventListener>();
  /** Told of every event this process recorded itself, once (lib/observability counts them). */
  private readonly recordedTaps = new Set<EventListener>();
  /** Far more than the relay's look-back window, so a re-read event is always recognised. */
  private delivered = new RecentIds(20_000);
  private maxDelivered = 0;
  private relay: EventRelay | undefined;
  private relayStarting: Promise<EventRelay> | undefined;
  private relayHandle: DatabaseHandle | undefined;

  /** Persists first (the id is the order), then announces, then publishes. */
  async record(db: Queryable, params: { tenantId: string; event: SwitchboardEvent }): Promise<RecordedEvent> {
    const event = eventSchema.parse(params.event);
    const { type, ...data } = event;
    const values = {
      tenantId: params.tenantId,
      type,
      serverId: "serverId" in event ? event.serverId : null,
      callId: "callId" in event ? event.callId : null,
      data,
    };
    const inTransaction = db instanceof PgTransaction;
    const row = await insertAndAnnounce(db, values, {
      announce: inTransaction || this.announcesOutsideTransactions(db),
    }).catch(async (error: unknown) => {
      // In a transaction the failure has aborted it: the caller must know. Outside one, store the
      // event without the NOTIFY; other processes' relays find it on their next sweep.
      if (inTransaction) throw error;
      return this.insertThenAnnounce(db, values);
    });
    const recorded: RecordedEvent = {
      ...event,
      id: row.id,
      tenantId: params.tenantId,
      createdAt: row.createdAt.toISOString(),
    };
    this.tapRecorded(recorded);
    // Inside a transaction the event is not visible (and may still roll back): publishing now would
    // wake a waiter that then reads the old state. PostgreSQL delivers a NOTIFY sent in a
    // transaction only at commit, so with a relay the event is published when that arrives.
    // Without one (scripts, tests) there is nobody to hear it: publish now, as before.
    // The NOTIFY leaves with the INSERT, so this process's relay may have read the event back and
    // published it before this line: once per id.
    logRecordedEvent(recorded);
    const relayedAlready = this.relay?.handle.db === db && this.delivered.has(recorded.id);
    if ((!inTransaction || !this.relay) && !relayedAlready) this.publish(recorded);
    return recorded;
  }

  /** Every event published on this hub from now on. Returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    // Wrapped so that subscribing the same function twice gives two independent subscriptions.
    const entry: EventListener = (event) => listener(event);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /**
   * Every event this process records from now on, once, as soon as it is stored — whether or not
   * (and whenever) it is published: what the process itself did, never what the relay brings from
   * others. Per-process counters (metrics) follow this, so processes' counts add up.
   */
  onRecorded(listener: EventListener): () => void {
    const entry: EventListener = (event) => listener(event);
    this.recordedTaps.add(entry);
    return () => {
      this.recordedTaps.delete(entry);
    };
  }

  private tapRecorded(event: RecordedEvent): void {
    for (const tap of this.recordedTaps) {
      try {
        tap(event);
      } catch {
        // Counting must never cost the recorder its event.
      }
    }
  }

  /**
   * Publishes an event. One this process just recorded is always new; one the relay read may have
   * been published already (its own NOTIFY coming back, a catch-up overlapping a notification):
   * those are published once per id. Returns false when skipped.
   */
  publish(event: RecordedEvent, source: "local" | "relay" = "local"): boolean {
    if (source === "relay" && this.delivered.has(event.id)) return false;
    this.delivered.add(event.id);
    if (event.id > this.maxDelivered) this.maxDelivered = event.id;
    // A snapshot: a listener that subscribes while this event is delivered starts with the next.
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One broken subscriber must not cost the others (or the recorder) their events.
        log.error({ err: error }, "event subscriber failed");
      }
    }
    return true;
  }

  /**
   * Publishes events another module persisted and announced itself, in one statement with its own
   * write (see lib/calls/call-journal.ts): each once, since the relay may have read them back first.
   */
  publishRecorded(db: Queryable, recorded: readonly RecordedEvent[]): void {
    for (const event of recorded) {
      this.tapRecorded(event);
      logRecordedEvent(event);
      // As in record(): skipped only when this process's relay, on this database, was first.
      const relayedAlready = this.relay?.handle.db === db && this.delivered.has(event.id);
      if (!relayedAlready) this.publish(event);
    }
  }

  /**
   * Whether an event written outside a transaction needs a NOTIFY. Not on this process's embedded
   * PGlite: one process per data folder, so nobody else listens, and this process publishes it
   * itself at once — the NOTIFY would only cost the single database thread work on every event.
   * (Inside a transaction it does: that is how the event is published once it commits.)
   */
  announcesOutsideTransactions(db: Queryable): boolean {
    return !(this.relay?.handle.db === db && this.relay.handle.driver === "pglite");
  }

  hasPublished(id: number): boolean {
    return this.delivered.has(id);
  }

  /** The highest id published here (0 before the first). */
  get lastPublishedId(): number {
    return this.maxDelivered;
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Whether a relay runs (readiness asks: without one, other processes' events never arrive here). */
  get hasRelay(): boolean {
    return this.relay !== undefined;
  }

  /**
   * Starts delivering the events of other processes that share this database (idempotent per
   * handle; a new handle replaces the old relay). The relay stops when the handle is closed.
   */
  startRelay(handle: DatabaseHandle, options: EventRelayOptions = {}): Promise<EventRelay> {
    if (this.relay?.handle === handle) return Promise.resolve(this.relay);
    if (this.relayStarting) return this.relayStarting.then(() => this.startRelay(handle, options));
    this.relayStarting = (async () => {
      await this.relay?.stop();
      this.relay = undefined;
      // Ids are per database: what was published from another one (tests switch) says nothing here.
      if (this.relayHandle !== handle) this.forgetPublished();
      this.relayHandle = handle;
      const relay = new EventRelay(this, handle, options);
      // A start that failed half-way (LISTEN up, the table unreadable) must not leave a listener
      // behind: start-up tries again with a new relay.
      await relay.start().catch(async (error: unknown) => {
        await relay.stop();
        throw error;
      });
      this.relay = relay;
      stopWithHandle(handle, () => this.stopRelay(relay));
      return relay;
    })().finally(() => {
      this.relayStarting = undefined;
    });
    return this.relayStarting;
  }

  async stopRelay(relay: EventRelay | undefined = this.relay): Promise<void> {
    if (!relay) return;
    if (this.relay === relay) this.relay = undefined;
    await relay.stop();
  }

  private forgetPublished(): void {
    this.delivered = new RecentIds(20_000);
    this.maxDelivered = 0;
  }

  /** The slow path, two statements: the event is stored even when its NOTIFY fails. */
  private async insertThenAnnounce(
    db: Queryable,
    values: typeof events.$inferInsert,
  ): Promise<InsertedEvent> {
    const [row] = await db
      .insert(events)
      .values(values)
      .returning({ id: events.id, createdAt: events.createdAt });
    if (!row) throw new Error("The event was not recorded.");
    const payload = JSON.stringify({ id: row.id, tenantId: values.tenantId });
    try {
      await db.execute(sql`select pg_notify(${EVENT_CHANNEL}, ${payload})`);
    } catch (error) {
      log.error(`event ${row.id}: NOTIFY failed: ${(error as Error).message}`);
    }
    return row;
  }
}

type InsertedEvent = { id: number; createdAt: Date };

/**
 * INSERT and NOTIFY in one statement (one round trip on the call path). The payload is
 * `{"id":…,"tenantId":"…"}` as the relay expects — built by the database from the new row.
 */
async function insertAndAnnounce(
  db: Queryable,
  values: typeof events.$inferInsert,
  options: { announce: boolean },
): Promise<InsertedEvent> {
  if (!options.announce) {
    const [row] = await db
      .insert(events)
      .values(values)
      .returning({ id: events.id, createdAt: events.createdAt });
    if (!row) throw new Error("The event was not recorded.");
    return row;
  }
  const inserted = db
    .$with("inserted")
    .as(
      db
        .insert(events)
        .values(values)
        .returning({ id: events.id, tenantId: events.tenantId, createdAt: events.createdAt }),
    );
  const [row] = await db
    .with(inserted)
    .select({
      id: inserted.id,
      createdAt: inserted.createdAt,
      notified: sql`pg_notify(${EVENT_CHANNEL}, json_build_object('id', ${inserted.id}, 'tenantId', ${inserted.tenantId})::text)`,
    })
    .from(inserted);
  if (!row) throw new Error("The event was not recorded.");
  return { id: row.id, createdAt: row.createdAt };
}

/** Closing a database stops its relay first, so no listener or timer outlives the connection. */
function stopWithHandle(handle: DatabaseHandle, stop: () => Promise<void>): void {
  const close = handle.close.bind(handle);
  handle.close = async () => {
    await stop().catch(() => {});
    await close();
  };
}
