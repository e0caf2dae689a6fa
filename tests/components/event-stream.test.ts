import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import { EventSource } from "eventsource";
import { createElement, type ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import { useLiveEvents } from "@/components/events/use-live-events";
import { type EventStreamFilter, type EventStreamStatus, useEventStream } from "@/lib/client/event-stream";
import type { RecordedEvent } from "@/lib/events/event-types";
import { parseEventFilter } from "@/lib/events/filter";
import { createEventStream, formatSseEvent, parseLastEventId, SSE_HEADERS } from "@/lib/events/sse";
import type { StableListener } from "@/lib/events/stable-feed";

/*
 * The browser's side of the live event stream, as the pages use it: the hooks, in a DOM (jsdom),
 * with a real EventSource (the `eventsource` package: jsdom has none), against a real SSE endpoint
 * — a node:http server answering with the same stream the REST route serves (lib/events/sse.ts),
 * which the test can cut off. What a person would notice: an event lost or shown twice after the
 * connection dropped, or a page that stays stale after the server turned a reconnect away.
 */

const TENANT = "tenant-a";

type Connection = { lastEventIdHeader: string | undefined; lastEventIdQuery: string | null };

/** The events endpoint of one workspace, backed by an in-memory table and bus. */
async function startEventsServer() {
  const table: RecordedEvent[] = [];
  const listeners = new Set<StableListener>();
  const open = new Set<ServerResponse>();
  const connections: Connection[] = [];
  let refusals = 0;
  let repeatOnResume = false;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const lastEventIdHeader = req.headers["last-event-id"] as string | undefined;
    connections.push({ lastEventIdHeader, lastEventIdQuery: url.searchParams.get("lastEventId") });
    if (refusals > 0) {
      refusals--;
      res.writeHead(503, { "content-type": "application/json" }).end('{"error":{"code":"unavailable"}}');
      return;
    }
    const headers = new Headers(lastEventIdHeader ? { "last-event-id": lastEventIdHeader } : {});
    const lastEventId = parseLastEventId(new Request(url, { headers }));
    const filter = parseEventFilter(url.searchParams);
    const abort = new AbortController();
    res.on("error", () => {}); // a write racing the drop: the client resumes from its last id anyway
    res.on("close", () => {
      open.delete(res);
      abort.abort();
    });
    const stream = createEventStream({
      tenantId: TENANT,
      filter,
      ...(lastEventId === undefined ? {} : { lastEventId }),
      readAfter: async (afterId, upTo, limit) =>
        table.filter((e) => e.id > afterId && e.id <= upTo).slice(0, limit),
      follow: async (listener) => {
        listeners.add(listener);
        return { watermark: table.length, unsubscribe: () => listeners.delete(listener) };
      },
      signal: abort.signal,
      retryMs: 50, // EventSource's own reconnect, so the test needs no long waits
    });
    res.writeHead(200, SSE_HEADERS);
    open.add(res);
    // A server that resends the event the client already has (the client must not show it twice).
    const already = table.find((e) => e.id === lastEventId);
    if (repeatOnResume && already) res.write(formatSseEvent(already));
    const reader = stream.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    /** Records the next event in the table and publishes it to open streams, as the hub does. */
    record(): RecordedEvent {
      const id = table.length + 1;
      const event = {
        id,
        tenantId: TENANT,
        createdAt: new Date().toISOString(),
        type: "server.health_checked",
        serverId: "srv-1",
        serverName: "files",
        ok: true,
        latencyMs: id,
      } as RecordedEvent;
      table.push(event);
      for (const listener of listeners) listener({ from: id - 1, upTo: id, events: [event] });
      return event;
    },
    /** Cuts every open stream off mid-way, as a proxy or a restart would. */
    drop() {
      for (const res of open) res.destroy();
    },
    /** The next `count` connection attempts are answered 503 (EventSource then gives up for good). */
    refuseNext(count: number) {
      refusals = count;
    },
    repeatOnResume(value: boolean) {
      repeatOnResume = value;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type EventsServer = Awaited<ReturnType<typeof startEventsServer>>;

let server: EventsServer;
const unmounts: Array<() => void> = [];

beforeAll(async () => {
  server = await startEventsServer();
  // The hooks open the relative /api/v1/events/stream: resolve it against the test server.
  const base = document.createElement("base");
  base.href = `${server.url}/`;
  document.head.append(base);
  vi.stubGlobal("EventSource", EventSource);
});
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
  server.repeatOnResume(false);
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await server?.close();
});

/** useEventStream mounted, with every event it hands over and every status it went through. */
function mountStream(initialFilter: EventStreamFilter | null = {}) {
  const seen: number[] = [];
  const statuses: EventStreamStatus[] = [];
  const hook = renderHook(
    ({ filter }: { filter: EventStreamFilter | null }) => {
      const state = useEventStream(filter, (event) => seen.push(event.id));
      if (statuses.at(-1) !== state.status) statuses.push(state.status);
      return state;
    },
    { initialProps: { filter: initialFilter } },
  );
  unmounts.push(hook.unmount);
  return { ...hook, seen, statuses };
}

// Outside act(): like a real page, the hooks' updates come from the network, not from the test.
const record = (count: number) => Array.from({ length: count }, () => server.record().id);
const connectionsAfter = (from: number) => server.connections.slice(from);

describe("useEventStream against a real SSE endpoint", () => {
  it("resumes with Last-Event-ID after the stream drops: every event once, in order", async () => {
    const from = server.connections.length;
    const stream = mountStream();
    await waitFor(() => expect(stream.result.current.status).toBe("open"));
    const first = record(3);
    await waitFor(() => expect(stream.seen).toEqual(first));

    server.drop();
    // Recorded while the client is away (or has not noticed yet): the resumed stream replays them.
    const missed = record(2);
    await waitFor(() => expect(connectionsAfter(from)).toHaveLength(2));
    const live = record(1);
    await waitFor(() => expect(stream.seen).toEqual([...first, ...missed, ...live]));
    expect(connectionsAfter(from)).toEqual([
      { lastEventIdHeader: undefined, lastEventIdQuery: null },
      { lastEventIdHeader: String(first.at(-1)), lastEventIdQuery: null },
    ]);
    expect(stream.statuses).toEqual(["closed", "connecting", "open", "reconnecting", "open"]);

    // A sentinel rather than a pause: one more event, and nothing came twice before it.
    const sentinel = record(1);
    await waitFor(() => expect(stream.seen).toEqual([...first, ...missed, ...live, ...sentinel]));
    expect(stream.result.current.lastEventId).toBe(sentinel[0]);
  });

  it("opens a new stream after the server turned a reconnect away, resuming with ?lastEventId=", async () => {
    const from = server.connections.length;
    const stream = mountStream();
    await waitFor(() => expect(stream.result.current.status).toBe("open"));
    const first = record(2);
    await waitFor(() => expect(stream.seen).toEqual(first));

    // EventSource retries once by itself, gets a 503 and closes for good; the hook opens a new
    // one (after a one-second backoff), which cannot send the header and says where in the URL.
    server.refuseNext(1);
    server.drop();
    const missed = record(2);
    await waitFor(() => expect(connectionsAfter(from)).toHaveLength(3), { timeout: 5_000 });
    const lastSeen = String(first.at(-1));
    expect(connectionsAfter(from)).toEqual([
      { lastEventIdHeader: undefined, lastEventIdQuery: null },
      { lastEventIdHeader: lastSeen, lastEventIdQuery: null },
      { lastEventIdHeader: undefined, lastEventIdQuery: lastSeen },
    ]);
    const sentinel = record(1);
    await waitFor(() => expect(stream.seen).toEqual([...first, ...missed, ...sentinel]));
    expect(stream.result.current.status).toBe("open");
  });

  it("hands over an event once when a resumed stream repeats it", async () => {
    const stream = mountStream();
    await waitFor(() => expect(stream.result.current.status).toBe("open"));
    const first = record(2);
    await waitFor(() => expect(stream.seen).toEqual(first));

    server.repeatOnResume(true);
    server.drop();
    const after = record(1);
    await waitFor(() => expect(stream.seen).toEqual([...first, ...after]));
    const sentinel = record(1);
    await waitFor(() => expect(stream.seen).toEqual([...first, ...after, ...sentinel]));
  });

  it("loses nothing over a pause: resuming continues after the last event seen", async () => {
    const from = server.connections.length;
    const stream = mountStream();
    await waitFor(() => expect(stream.result.current.status).toBe("open"));
    const first = record(1);
    await waitFor(() => expect(stream.seen).toEqual(first));

    stream.rerender({ filter: null });
    expect(stream.result.current.status).toBe("closed");
    const duringPause = record(2);
    stream.rerender({ filter: {} });
    await waitFor(() => expect(stream.result.current.status).toBe("open"));
    const sentinel = record(1);
    await waitFor(() => expect(stream.seen).toEqual([...first, ...duringPause, ...sentinel]));
    expect(connectionsAfter(from).at(-1)).toEqual({
      lastEventIdHeader: undefined,
      lastEventIdQuery: String(first.at(-1)),
    });
  });
});

describe("one connection per filter in a tab", () => {
  it("hooks that follow the same filter share a stream; each gets every event; it closes with the last", async () => {
    const from = server.connections.length;
    const sidebar = mountStream({ type: "server." });
    const page = mountStream({ type: "server." });
    const other = mountStream({ call: "call-1" });
    await waitFor(() => expect(sidebar.result.current.status).toBe("open"));
    await waitFor(() => expect(page.result.current.status).toBe("open"));
    await waitFor(() => expect(other.result.current.status).toBe("open"));
    // Two filters, two connections: a browser allows six per host, and every tab has a sidebar.
    expect(connectionsAfter(from)).toHaveLength(2);

    const first = record(2);
    await waitFor(() => expect(sidebar.seen).toEqual(first));
    await waitFor(() => expect(page.seen).toEqual(first));

    // The page leaves (navigation): the sidebar keeps following on the same connection.
    page.unmount();
    const later = record(1);
    await waitFor(() => expect(sidebar.seen).toEqual([...first, ...later]));
    expect(connectionsAfter(from)).toHaveLength(2);

    // Everyone leaves; the next hook opens a new connection.
    sidebar.unmount();
    other.unmount();
    const next = mountStream({ type: "server." });
    await waitFor(() => expect(next.result.current.status).toBe("open"));
    expect(connectionsAfter(from)).toHaveLength(3);
    const sentinel = record(1);
    await waitFor(() => expect(next.seen).toEqual(sentinel));
  });
});

describe("useLiveEvents", () => {
  it("keeps the live list whole across a dropped stream: newest first, none twice", async () => {
    const hook = renderHook(() => useLiveEvents({}));
    unmounts.push(hook.unmount);
    await waitFor(() => expect(hook.result.current.status).toBe("open"));
    const first = record(2);
    await waitFor(() => expect(hook.result.current.live).toHaveLength(2));

    server.drop();
    const missed = record(2);
    const sentinel = record(1);
    const ids = () => hook.result.current.live.map((e) => e.id);
    await waitFor(() => expect(ids()).toEqual([...first, ...missed, ...sentinel].reverse()));
  });
});

describe("useLiveInvalidation", () => {
  it("refetches after an event that arrived while the page's first fetch was still on its way", async () => {
    // What the server would answer at the moment a request reaches it.
    let state = "ready";
    let release = () => {};
    const firstAnswer = new Promise<void>((resolve) => {
      release = resolve;
    });
    let fetches = 0;
    const queryFn = () => {
      const answer = state;
      fetches++;
      return fetches === 1 ? firstAnswer.then(() => answer) : Promise.resolve(answer);
    };
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client: queryClient }, children);
    const hook = renderHook(
      () => {
        const status = useLiveInvalidation({ type: "server." }, () => [["server"]], [["server"]]);
        const { data } = useQuery({ queryKey: ["server"], queryFn });
        return { status, data };
      },
      { wrapper },
    );
    unmounts.push(hook.unmount);
    await waitFor(() => expect(hook.result.current.status).toBe("open"));

    // The server changes, its event arrives and is handled, and only then does the first answer
    // (read before the change) come back: the page must not stay on it.
    state = "needs-authorization";
    record(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    await waitFor(() => expect(hook.result.current.data).toBe("needs-authorization"));
    expect(fetches).toBe(2);
  });
});
