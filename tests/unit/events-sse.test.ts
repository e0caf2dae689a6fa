import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "@/lib/events/event-types";
import { type EventFilter, matchesFilter, parseEventFilter } from "@/lib/events/filter";
import {
  createEventStream,
  type EventStreamOptions,
  formatGapMarker,
  formatSseComment,
  formatSseEvent,
  parseLastEventId,
} from "@/lib/events/sse";
import type { StableListener } from "@/lib/events/stable-feed";
import { payloads, type SseMessage, SseReader } from "../fixtures/sse-reader";

/*
 * The SSE stream without a database: an in-memory "table" and "bus" stand in for the events table
 * and subscribeEvents, so ordering, resume, filters and the bounded buffer are tested exactly.
 */

const TENANT = "tenant-a";

function healthEvent(id: number, overrides: Partial<Record<string, unknown>> = {}): RecordedEvent {
  return {
    type: "server.health_checked",
    serverId: "srv-1",
    serverName: "files",
    ok: true,
    latencyMs: 3,
    id,
    tenantId: TENANT,
    createdAt: new Date(0).toISOString(),
    ...overrides,
  } as RecordedEvent;
}

/** A table (every recorded event) and a stable feed (subscribers get each event as it is recorded). */
class FakeLog {
  readonly table: RecordedEvent[] = [];
  readonly listeners = new Set<StableListener>();
  private nextId = 1;

  record(overrides: Partial<Record<string, unknown>> = {}): RecordedEvent {
    const event = healthEvent(this.nextId++, overrides);
    this.table.push(event);
    for (const listener of this.listeners) listener({ from: event.id - 1, upTo: event.id, events: [event] });
    return event;
  }

  stream(options: Partial<EventStreamOptions> = {}): ReadableStream<Uint8Array> {
    const filter: EventFilter = options.filter ?? {};
    return createEventStream({
      tenantId: TENANT,
      filter,
      readAfter: async (afterId, upTo, limit) =>
        this.table
          .filter((e) => e.id > afterId && e.id <= upTo && e.tenantId === TENANT && matchesFilter(e, filter))
          .slice(0, limit),
      follow: async (listener) => {
        this.listeners.add(listener);
        return { watermark: this.nextId - 1, unsubscribe: () => this.listeners.delete(listener) };
      },
      heartbeatMs: 60_000,
      ...options,
    });
  }
}

const ids = (messages: SseMessage[]) => payloads(messages).map((e) => e.id);

describe("SSE formatting", () => {
  it("writes id, event type and one JSON data line per event", () => {
    const event = healthEvent(42, { error: "line one\nline two" });
    const text = formatSseEvent(event);
    expect(text).toBe(`id: 42\nevent: server.health_checked\ndata: ${JSON.stringify(event)}\n\n`);
    expect(text.split("\n").filter((l) => l.startsWith("data:"))).toHaveLength(1);
  });

  it("marks a gap without an id, and keeps comments on one line", () => {
    expect(formatGapMarker(7)).toBe('event: gap\ndata: {"lastEventId":7}\n\n');
    expect(formatGapMarker(null)).toBe('event: gap\ndata: {"lastEventId":null}\n\n');
    expect(formatSseComment("a\nb")).toBe(": a b\n\n");
  });

  it("reads Last-Event-ID from the header first, then ?lastEventId=", () => {
    const url = "http://x/api/v1/events/stream?lastEventId=5";
    expect(parseLastEventId(new Request(url, { headers: { "Last-Event-ID": "9" } }))).toBe(9);
    expect(parseLastEventId(new Request(url))).toBe(5);
    expect(parseLastEventId(new Request("http://x/"))).toBeUndefined();
    for (const bad of ["-1", "1.5", "abc", "99999999999999999999"]) {
      expect(() => parseLastEventId(new Request("http://x/", { headers: { "Last-Event-ID": bad } }))).toThrow(
        /Last-Event-ID/,
      );
    }
  });
});

describe("event filters", () => {
  const parse = (query: string) => parseEventFilter(new URLSearchParams(query));

  it("parses server, call and types (exact, prefix, several)", () => {
    expect(parse("")).toEqual({});
    expect(parse("server=files&call=c1&type=call.,server.state_changed")).toEqual({
      server: "files",
      call: "c1",
      types: ["call.", "server.state_changed"],
    });
    expect(parse("type=call.*")).toEqual({ types: ["call."] });
  });

  it("refuses unknown types with a message naming the known ones", () => {
    expect(() => parse("type=call.approve")).toThrow(/Unknown event type.*call\.approved/);
    expect(() => parse("type=nothing.")).toThrow(/Unknown event type/);
  });

  it("matches by server id or name, call id and type prefix", () => {
    const event = healthEvent(1);
    expect(matchesFilter(event, { server: "files" })).toBe(true);
    expect(matchesFilter(event, { server: "srv-1" })).toBe(true);
    expect(matchesFilter(event, { server: "other" })).toBe(false);
    expect(matchesFilter(event, { types: ["server."] })).toBe(true);
    expect(matchesFilter(event, { types: ["call."] })).toBe(false);
    expect(matchesFilter(event, { types: ["call.", "server.health_checked"] })).toBe(true);
    expect(matchesFilter(event, { call: "c1" })).toBe(false);
  });
});

describe("the event stream", () => {
  it("replays after Last-Event-ID, then goes live, without duplicates", async () => {
    const log = new FakeLog();
    for (let i = 0; i < 5; i++) log.record();
    const reader = new SseReader(log.stream({ lastEventId: 2 }));
    expect(ids(await reader.events(3))).toEqual([3, 4, 5]);
    log.record();
    log.record();
    const live = await reader.events(2);
    expect(ids(live)).toEqual([6, 7]);
    expect(live.map((m) => m.id)).toEqual(["6", "7"]);
    expect(reader.lastEventId).toBe("7");
    // Sentinel: the next event sent is the next one recorded, so nothing was repeated before it.
    const sentinel = log.record();
    expect(ids(await reader.events(1))).toEqual([sentinel.id]);
    await reader.cancel();
  });

  it("starts live when there is no Last-Event-ID", async () => {
    const log = new FakeLog();
    log.record();
    const reader = new SseReader(log.stream());
    expect((await reader.next())?.comment).toBe("connected");
    log.record();
    expect(ids(await reader.events(1))).toEqual([2]);
    await reader.cancel();
  });

  it("sends only the workspace's events that match the filter", async () => {
    const log = new FakeLog();
    const reader = new SseReader(log.stream({ filter: { server: "files", types: ["server."] } }));
    await reader.next();
    log.record({ tenantId: "tenant-b" });
    log.record({ serverName: "other", serverId: "srv-2" });
    const wanted = log.record();
    expect(ids(await reader.events(1))).toEqual([wanted.id]);
    // Sentinel: after one more refused event, the next one sent is the next wanted one.
    log.record({ serverName: "other", serverId: "srv-2" });
    const sentinel = log.record();
    expect(ids(await reader.events(1))).toEqual([sentinel.id]);
    await reader.cancel();
  });

  it("resumes exactly after any id the client had, with a filter that skips most events", async () => {
    const log = new FakeLog();
    for (let i = 0; i < 10; i++) log.record(i % 3 === 0 ? {} : { serverName: "other", serverId: "srv-2" });
    // The client's Last-Event-ID was a skipped event's id, and it lies between two wanted ones.
    const reader = new SseReader(log.stream({ lastEventId: 5, filter: { server: "files" } }));
    expect(ids(await reader.events(2))).toEqual([7, 10]);
    const next = log.record();
    expect(ids(await reader.events(1))).toEqual([next.id]);
    expect(reader.lastEventId).toBe(String(next.id));
    await reader.cancel();
  });

  it("a subscriber that never reads gets a gap marker and is resynced; others keep receiving", async () => {
    const log = new FakeLog();
    const slow = log.stream({ maxBuffered: 50 });
    const fast = new SseReader(log.stream({ maxBuffered: 50 }));
    await fast.next();

    // The publisher records 1000 events with the slow stream unread: recording never waits.
    const started = performance.now();
    for (let i = 0; i < 1000; i++) {
      log.record();
      // The fast subscriber reads as it goes (one read per event keeps it within its buffer).
      if (i % 10 === 9) expect(ids(await fast.events(10))).toHaveLength(10);
    }
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(log.listeners.size).toBe(2);

    // Now the slow one reads: what fit in its buffer, a gap marker, then the rest from the table.
    const reader = new SseReader(slow);
    const received: number[] = [];
    const gaps: Array<{ lastEventId: number | null }> = [];
    let lastBeforeGap: number | undefined;
    while (received.length < 1000) {
      const message = await reader.next(5_000);
      if (!message) break;
      if (message.comment !== undefined) continue;
      if (message.event === "gap") {
        gaps.push(JSON.parse(message.data));
        lastBeforeGap = received.at(-1);
        continue;
      }
      received.push(JSON.parse(message.data).id);
    }
    expect(gaps).toHaveLength(1);
    expect(gaps[0]?.lastEventId).toBe(lastBeforeGap);
    expect(received).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(reader.lastEventId).toBe("1000");

    // Resynced, it is live again.
    log.record();
    expect(ids(await reader.events(1))).toEqual([1001]);
    expect(ids(await fast.events(1))).toEqual([1001]);
    await reader.cancel();
    await fast.cancel();
  });

  it("sends heartbeat comments", async () => {
    const log = new FakeLog();
    const reader = new SseReader(log.stream({ heartbeatMs: 20 }));
    await reader.next(); // connected
    expect((await reader.next(2_000))?.comment).toBe("heartbeat");
    await reader.cancel();
  });

  it("ends and unsubscribes when the request is aborted, or the reader cancels", async () => {
    const log = new FakeLog();
    const abort = new AbortController();
    const reader = new SseReader(log.stream({ signal: abort.signal }));
    await reader.next();
    expect(log.listeners.size).toBe(1);
    abort.abort();
    expect(await reader.endsWithin(2_000)).toBe(true);
    expect(log.listeners.size).toBe(0);

    const other = new SseReader(log.stream());
    await other.next();
    expect(log.listeners.size).toBe(1);
    await other.cancel();
    expect(log.listeners.size).toBe(0);
  });

  it("closes (so the client reconnects and resumes) when the table cannot be read", async () => {
    const log = new FakeLog();
    log.record(); // something to replay
    const errors: unknown[] = [];
    const reader = new SseReader(
      log.stream({
        lastEventId: 0,
        readAfter: async () => {
          throw new Error("database went away");
        },
        onError: (error) => errors.push(error),
      }),
    );
    expect((await reader.next())?.comment).toBe("connected");
    expect(await reader.endsWithin(2_000)).toBe(true);
    expect(errors).toHaveLength(1);
    expect(log.listeners.size).toBe(0);
  });
});
