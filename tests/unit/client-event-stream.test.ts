import { afterEach, describe, expect, it, vi } from "vitest";
import { eventStreamUrl, openEventStream } from "@/lib/client/event-stream";
import type { RecordedEvent } from "@/lib/events/event-types";

/** Just enough of EventSource: listeners by event name, readyState, and a way to drive it. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, Array<(m: MessageEvent<string>) => void>>();
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (m: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  emit(type: string, data: unknown, lastEventId = "") {
    const message = { data: JSON.stringify(data), lastEventId } as MessageEvent<string>;
    for (const listener of this.listeners.get(type) ?? []) listener(message);
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.onerror?.();
  }
}

const event = (id: number, type = "call.approved") =>
  ({ id, type, tenantId: "t" }) as unknown as RecordedEvent;

afterEach(() => {
  FakeEventSource.instances = [];
  vi.useRealTimers();
});

describe("browser event stream", () => {
  it("builds the stream URL from the filter", () => {
    expect(eventStreamUrl()).toBe("/api/v1/events/stream");
    expect(eventStreamUrl({ server: "files", type: ["call.", "server.state_changed"] }, 7)).toBe(
      "/api/v1/events/stream?server=files&type=call.%2Cserver.state_changed&lastEventId=7",
    );
  });

  it("hands every typed event to onEvent once, and reports gaps", () => {
    const seen: number[] = [];
    const gaps: unknown[] = [];
    const handle = openEventStream({
      onEvent: (e) => seen.push(e.id),
      onGap: (gap) => gaps.push(gap),
      eventSourceClass: FakeEventSource as unknown as typeof EventSource,
    });
    const source = FakeEventSource.instances[0];
    source?.open();
    source?.emit("server.state_changed", event(1, "server.state_changed"), "1");
    source?.emit("call.approved", event(2), "2");
    source?.emit("call.approved", event(2), "2");
    source?.emit("gap", { lastEventId: 2 });
    expect(seen).toEqual([1, 2]);
    expect(gaps).toEqual([{ lastEventId: 2 }]);
    expect(handle.lastEventId).toBe(2);
    handle.close();
    expect(source?.readyState).toBe(FakeEventSource.CLOSED);
  });

  it("leaves transient drops to EventSource, and reopens after a refusal from the last id", () => {
    vi.useFakeTimers();
    const statuses: string[] = [];
    const handle = openEventStream({
      filter: { type: "call." },
      onEvent: () => {},
      onStatus: (s) => statuses.push(s),
      eventSourceClass: FakeEventSource as unknown as typeof EventSource,
    });
    const first = FakeEventSource.instances[0];
    first?.open();
    first?.emit("call.approved", event(41), "41");
    first?.fail(FakeEventSource.CONNECTING); // the browser reconnects by itself
    expect(FakeEventSource.instances).toHaveLength(1);
    first?.fail(FakeEventSource.CLOSED); // e.g. a 503 during a restart: the browser gave up
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(FakeEventSource.instances[1]?.url).toBe("/api/v1/events/stream?type=call.&lastEventId=41");
    expect(statuses).toEqual(["connecting", "open", "reconnecting", "reconnecting", "reconnecting"]);
    handle.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(2);
  });
});
