import { AppError } from "@/lib/errors";
import { GAP_EVENT } from "./event-names";
import type { RecordedEvent } from "./event-types";
import { type EventFilter, matchesFilter } from "./filter";
import { RecentIds } from "./recent-ids";

/*
 * The events SSE stream, framework-free: a Web ReadableStream that replays from the table, then
 * follows the live bus, with a bounded buffer per subscriber. The route handler only wires it up.
 * Our own rather than an SSE library's: the replay-then-live hand-over without loss or repeat and
 * the per-reader bound with a `gap` resync are the whole of it, and no library does them.
 */

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  // nginx and friends buffer responses by default, which would hold events back.
  "X-Accel-Buffering": "no",
} as const;

/** One event as an SSE message: `id:` (when it advances the stream's id), `event:` its type, `data:` JSON. */
export function formatSseEvent(event: RecordedEvent, options: { withId?: boolean } = {}): string {
  // JSON.stringify escapes line breaks, so the payload is always one `data:` line.
  const id = options.withId === false ? "" : `id: ${event.id}\n`;
  return `${id}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The marker a subscriber gets after its buffer overflowed; it carries no `id:` (nothing was delivered). */
export function formatGapMarker(lastEventId: number | null): string {
  return `event: ${GAP_EVENT}\ndata: ${JSON.stringify({ lastEventId })}\n\n`;
}

/** A comment line: ignored by EventSource, keeps proxies and idle timeouts from closing the stream. */
export function formatSseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, " ")}\n\n`;
}

/**
 * Where a stream resumes: the `Last-Event-ID` header (EventSource sends it on reconnect), else
 * `?lastEventId=` (for a client that opens a fresh EventSource and cannot set headers). An id is
 * not a credential, so the query string is fine for it.
 */
export function parseLastEventId(request: Request): number | undefined {
  const header = request.headers.get("last-event-id")?.trim();
  const trimmed = header || new URL(request.url).searchParams.get("lastEventId")?.trim();
  if (!trimmed) return undefined;
  const id = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(id)) {
    throw new AppError("validation", "Last-Event-ID must be the id of an event (a whole number).", {
      fieldErrors: { lastEventId: ["Expected an event id (a whole number)."] },
    });
  }
  return id;
}

export type EventStreamOptions = {
  tenantId: string;
  filter: EventFilter;
  /** Resume after this id (the client's Last-Event-ID): replay from the table first. Absent = live only. */
  lastEventId?: number;
  /** The workspace's matching events after an id, oldest first (tenant and filter applied). */
  readAfter: (afterId: number, limit: number) => Promise<RecordedEvent[]>;
  /** The live bus (subscribeEvents). */
  subscribe: (listener: (event: RecordedEvent) => void) => () => void;
  /** Ends the stream (the request's signal: the client went away). */
  signal?: AbortSignal;
  heartbeatMs?: number;
  /** Live events held for a subscriber that does not read; one more and it gets a gap marker. */
  maxBuffered?: number;
  replayPageSize?: number;
  /** The reconnection delay EventSource should use (the `retry:` field). */
  retryMs?: number;
  onError?: (error: unknown) => void;
};

/**
 * An SSE stream of one workspace's events. Order of business: subscribe (so nothing published
 * during the replay is missed), replay after `lastEventId`, then live. A subscriber that stops
 * reading keeps at most `maxBuffered` live events; past that they are dropped, and when it reads
 * again it gets a `gap` marker and is resynced from the table — the publisher never waits for it.
 */
export function createEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const session = new StreamSession(options);
  return new ReadableStream<Uint8Array>(
    {
      start: (controller) => session.start(controller),
      pull: () => session.pump(),
      cancel: () => session.close(false),
    },
    // Chunks, not bytes: a few messages may wait in the stream's own queue; the rest is ours to bound.
    new CountQueuingStrategy({ highWaterMark: 16 }),
  );
}

class StreamSession {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private readonly encoder = new TextEncoder();
  private readonly sent = new RecentIds(5_000);
  private pending: RecordedEvent[] = [];
  private overflowed = false;
  private mode: "replay" | "live";
  /** Where a replay continues from: the highest id sent (or, after an overflow, just below the dropped ones). */
  private position: number | undefined;
  /** The highest id sent with an `id:` line — what the client's Last-Event-ID now is. */
  private lastSentId: number | undefined;
  private pumping: Promise<void> | undefined;
  private repump = false;
  private closed = false;
  private unsubscribe: () => void = () => {};
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private readonly maxBuffered: number;
  private readonly pageSize: number;

  constructor(private readonly options: EventStreamOptions) {
    this.maxBuffered = options.maxBuffered ?? 500;
    this.pageSize = options.replayPageSize ?? 100;
    this.position = options.lastEventId;
    this.lastSentId = options.lastEventId;
    this.mode = options.lastEventId === undefined ? "live" : "replay";
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
    const { signal } = this.options;
    if (signal?.aborted) {
      this.close(true);
      return;
    }
    signal?.addEventListener("abort", () => this.close(true), { once: true });
    this.write(`retry: ${this.options.retryMs ?? 3_000}\n${formatSseComment("connected")}`);
    this.unsubscribe = this.options.subscribe((event) => this.onLive(event));
    this.heartbeat = setInterval(() => {
      if (this.hasRoom()) this.write(formatSseComment("heartbeat"));
    }, this.options.heartbeatMs ?? 15_000);
    // A stream whose reader went away must not keep a process alive.
    (this.heartbeat as { unref?: () => void }).unref?.();
    void this.pump();
  }

  close(closeController: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    clearInterval(this.heartbeat);
    this.pending = [];
    if (closeController) {
      try {
        this.controller.close();
      } catch {
        // already closed or errored
      }
    }
  }

  /** Runs the stream forward as far as the reader has room; one run at a time. */
  pump(): Promise<void> {
    if (this.pumping) {
      this.repump = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      try {
        do {
          this.repump = false;
          await this.drain();
        } while (this.repump && !this.closed);
      } catch (error) {
        // The client reconnects with its Last-Event-ID and the replay fills the hole.
        this.options.onError?.(error);
        this.close(true);
      } finally {
        this.pumping = undefined;
      }
    })();
    return this.pumping;
  }

  private onLive(event: RecordedEvent): void {
    if (this.closed || this.overflowed) return;
    if (event.tenantId !== this.options.tenantId || !matchesFilter(event, this.options.filter)) return;
    if (this.pending.length >= this.maxBuffered) {
      // Drop everything held (memory stays bounded) and resync from the table when it reads again.
      const lowest = Math.min(event.id, ...this.pending.map((e) => e.id));
      this.position ??= lowest - 1;
      this.pending = [];
      this.overflowed = true;
      return;
    }
    this.pending.push(event);
    if (this.mode === "live") void this.pump();
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.hasRoom()) {
      if (this.overflowed) {
        this.overflowed = false;
        this.pending = [];
        if (this.mode === "live") {
          this.write(formatGapMarker(this.lastSentId ?? null));
          this.mode = "replay";
        }
        // In replay mode the replay simply continues: the dropped events are in the table.
        continue;
      }
      if (this.mode === "replay") {
        const page = await this.options.readAfter(this.position ?? 0, this.pageSize);
        if (this.closed) return;
        for (const event of page) this.send(event);
        // Caught up — unless live events were dropped while reading (then read on).
        if (page.length < this.pageSize && !this.overflowed) this.mode = "live";
        continue;
      }
      const next = this.pending.shift();
      if (!next) return;
      this.send(next);
    }
  }

  private send(event: RecordedEvent): void {
    if (this.sent.has(event.id)) return;
    // The client said it has everything up to its Last-Event-ID.
    if (this.options.lastEventId !== undefined && event.id <= this.options.lastEventId) return;
    this.sent.add(event.id);
    // Ids of concurrent writers can commit out of order. The `id:` line only ever moves forward,
    // so a resume never re-sends what came before it; the event's own id is in its data.
    const advances = this.lastSentId === undefined || event.id > this.lastSentId;
    this.write(formatSseEvent(event, { withId: advances }));
    if (advances) this.lastSentId = event.id;
    if (this.position === undefined || event.id > this.position) this.position = event.id;
  }

  private hasRoom(): boolean {
    return !this.closed && (this.controller.desiredSize ?? 0) > 0;
  }

  private write(text: string): void {
    if (this.closed) return;
    this.controller.enqueue(this.encoder.encode(text));
  }
}
