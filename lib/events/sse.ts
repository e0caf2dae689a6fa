import { AppError } from "@/lib/errors";
import { GAP_EVENT } from "./event-names";
import type { RecordedEvent } from "./event-types";
import { type EventFilter, matchesFilter } from "./filter";
import type { StableBatch, StableListener } from "./stable-feed";

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

/** One event as an SSE message: `id:` its id (the stream is in id order), `event:` its type, `data:` JSON. */
export function formatSseEvent(event: RecordedEvent): string {
  // JSON.stringify escapes line breaks, so the payload is always one `data:` line.
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
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
  /** The workspace's matching events in (afterId, upTo], oldest first (tenant and filter applied). */
  readAfter: (afterId: number, upTo: number, limit: number) => Promise<RecordedEvent[]>;
  /**
   * The stable feed (StableFeed.subscribe): every event up to the returned watermark is final, and
   * the listener then gets each later one once, in id order, in contiguous batches.
   */
  follow: (listener: StableListener) => Promise<{ watermark: number; unsubscribe: () => void }>;
  /** Ends the stream (the request's signal: the client went away). */
  signal?: AbortSignal;
  heartbeatMs?: number;
  /** Live events held for a subscriber that does not read; one more and it gets a gap marker. */
  maxBuffered?: number;
  replayPageSize?: number;
  /** The reconnection delay EventSource should use (the `retry:` field). */
  retryMs?: number;
  onError?: (error: unknown) => void;
  /** Once, when the stream ends for whatever reason (the SSE subscriber gauge). */
  onClose?: () => void;
};

/**
 * An SSE stream of one workspace's events, in id order, each once: its `id:` is exact, so a
 * client resuming with Last-Event-ID gets precisely what came after. Order of business: follow
 * the stable feed (stable-feed.ts), replay from the table after `lastEventId` up to the feed's
 * watermark, then the feed's batches. A subscriber that stops reading keeps at most `maxBuffered`
 * events; past that they are dropped, and when it reads again it gets a `gap` marker and the
 * dropped range is read from the table — the feed never waits for it, and nothing is lost.
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
  /** Every matching event with an id up to this was sent (or was before the client's Last-Event-ID). */
  private sentUpTo: number | undefined;
  /**
   * `pending` holds every matching event after this id that the feed has handed over; what lies
   * between sentUpTo and it is read from the table.
   */
  private bufferFrom: number | undefined;
  private pending: RecordedEvent[] = [];
  private gapToReport = false;
  /** The id of the last event sent: the client's Last-Event-ID, reported in a gap marker. */
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
    this.lastSentId = options.lastEventId;
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
    const { signal } = this.options;
    if (signal?.aborted) {
      this.close(true);
      return;
    }
    signal?.addEventListener("abort", () => this.close(true), { once: true });
    this.heartbeat = setInterval(() => {
      if (this.hasRoom()) this.write(formatSseComment("heartbeat"));
    }, this.options.heartbeatMs ?? 15_000);
    // A stream whose reader went away must not keep a process alive.
    (this.heartbeat as { unref?: () => void }).unref?.();
    this.options
      .follow((batch) => this.onBatch(batch))
      .then(
        ({ watermark, unsubscribe }) => {
          this.unsubscribe = unsubscribe;
          if (this.closed) return unsubscribe();
          // A batch may have come (and overflowed) before this ran: never move bufferFrom back.
          this.bufferFrom = Math.max(this.bufferFrom ?? 0, watermark);
          this.sentUpTo = this.options.lastEventId ?? watermark;
          // Only now: a client that has read this may count on every event recorded after it.
          this.write(`retry: ${this.options.retryMs ?? 3_000}\n${formatSseComment("connected")}`);
          void this.pump();
        },
        (error: unknown) => {
          this.options.onError?.(error);
          this.close(true);
        },
      );
  }

  close(closeController: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.options.onClose?.();
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

  private onBatch(batch: StableBatch): void {
    if (this.closed) return;
    const { tenantId, filter } = this.options;
    for (const event of batch.events) {
      if (event.tenantId === tenantId && matchesFilter(event, filter)) this.pending.push(event);
    }
    if (this.pending.length > this.maxBuffered) {
      // Drop everything held (memory stays bounded): the table has it, up to this batch's end.
      this.pending = [];
      this.bufferFrom = batch.upTo;
      this.gapToReport = true;
    }
    void this.pump();
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.hasRoom() && this.sentUpTo !== undefined && this.bufferFrom !== undefined) {
      if (this.gapToReport) {
        this.gapToReport = false;
        this.write(formatGapMarker(this.lastSentId ?? null));
        continue;
      }
      if (this.sentUpTo < this.bufferFrom) {
        const upTo = this.bufferFrom;
        const page = await this.options.readAfter(this.sentUpTo, upTo, this.pageSize);
        if (this.closed) return;
        for (const event of page) this.send(event);
        if (page.length < this.pageSize) this.sentUpTo = Math.max(this.sentUpTo, upTo);
        continue;
      }
      const next = this.pending.shift();
      if (!next) return;
      this.send(next);
    }
  }

  private send(event: RecordedEvent): void {
    // Already sent, or before the client's Last-Event-ID.
    if (this.sentUpTo !== undefined && event.id <= this.sentUpTo) return;
    this.write(formatSseEvent(event));
    this.sentUpTo = event.id;
    this.lastSentId = event.id;
  }

  private hasRoom(): boolean {
    return !this.closed && (this.controller.desiredSize ?? 0) > 0;
  }

  private write(text: string): void {
    if (this.closed) return;
    this.controller.enqueue(this.encoder.encode(text));
  }
}
