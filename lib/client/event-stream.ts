import { useEffect, useRef, useState } from "react";
import { backoffDelay } from "@/lib/client/backoff";
import { EVENT_TYPES, GAP_EVENT } from "@/lib/events/event-names";
import type { RecordedEvent } from "@/lib/events/event-types";

/*
 * Browser side of GET /api/v1/events/stream. EventSource already reconnects by itself and sends
 * Last-Event-ID (the server's `id:` lines only move forward, so that resume is exact). What it does
 * not do is come back after the server refused a reconnect (a 401 or 503 closes it for good): then
 * a new EventSource is opened after a jittered backoff (lib/client/backoff.ts), resuming with
 * ?lastEventId= (not a credential).
 */

export type EventStreamFilter = { server?: string; call?: string; type?: string | readonly string[] };
export type EventStreamStatus = "connecting" | "open" | "reconnecting" | "closed";
export type EventGap = { lastEventId: number | null };

export function eventStreamUrl(filter: EventStreamFilter = {}, lastEventId?: number): string {
  const params = new URLSearchParams();
  if (filter.server) params.set("server", filter.server);
  if (filter.call) params.set("call", filter.call);
  const types = typeof filter.type === "string" ? [filter.type] : (filter.type ?? []);
  if (types.length) params.set("type", types.join(","));
  if (lastEventId !== undefined) params.set("lastEventId", String(lastEventId));
  const query = params.toString();
  return `/api/v1/events/stream${query ? `?${query}` : ""}`;
}

export type EventStreamOptions = {
  filter?: EventStreamFilter;
  onEvent: (event: RecordedEvent) => void;
  /** The server dropped events for this (slow) client and resent them from the table: refetch lists. */
  onGap?: (gap: EventGap) => void;
  onStatus?: (status: EventStreamStatus) => void;
  /** Start after this id instead of live-only. */
  lastEventId?: number;
  /** For tests. */
  eventSourceClass?: typeof EventSource;
};

export type EventStreamHandle = { close(): void; readonly lastEventId: number | undefined };

export function openEventStream(options: EventStreamOptions): EventStreamHandle {
  const Source = options.eventSourceClass ?? EventSource;
  let lastEventId = options.lastEventId;
  let source: EventSource | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let closed = false;
  // Defensive: an id is handed to the app once, even if a reconnect overlaps.
  const seen = new Set<number>();

  const onMessage = (message: MessageEvent<string>) => {
    let event: RecordedEvent;
    try {
      event = JSON.parse(message.data) as RecordedEvent;
    } catch {
      return;
    }
    const streamId = Number(message.lastEventId);
    if (Number.isSafeInteger(streamId) && streamId > 0) lastEventId = Math.max(lastEventId ?? 0, streamId);
    if (seen.has(event.id)) return;
    seen.add(event.id);
    if (seen.size > 5_000) seen.delete(seen.values().next().value as number);
    options.onEvent(event);
  };
  const onGap = (message: MessageEvent<string>) => {
    try {
      options.onGap?.(JSON.parse(message.data) as EventGap);
    } catch {
      // a malformed marker is still a gap
      options.onGap?.({ lastEventId: null });
    }
  };

  const connect = () => {
    if (closed) return;
    options.onStatus?.(failures === 0 ? "connecting" : "reconnecting");
    const current = new Source(eventStreamUrl(options.filter, lastEventId), { withCredentials: true });
    source = current;
    current.onopen = () => {
      failures = 0;
      options.onStatus?.("open");
    };
    current.onerror = () => {
      if (closed) return;
      if (current.readyState === Source.CONNECTING) {
        options.onStatus?.("reconnecting"); // EventSource retries by itself, with Last-Event-ID
        return;
      }
      // Closed for good by the browser: open a new one, resuming from the last id we saw.
      current.close();
      failures++;
      options.onStatus?.("reconnecting");
      retryTimer = setTimeout(connect, backoffDelay(failures));
    };
    for (const type of [...EVENT_TYPES, "message"]) current.addEventListener(type, onMessage);
    current.addEventListener(GAP_EVENT, onGap);
  };

  connect();
  return {
    close() {
      closed = true;
      clearTimeout(retryTimer);
      source?.close();
      options.onStatus?.("closed");
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}

type StreamListener = Pick<EventStreamOptions, "onEvent" | "onGap" | "onStatus">;
type SharedStream = { handle: EventStreamHandle; status: EventStreamStatus; listeners: Set<StreamListener> };

/**
 * One EventSource per filter in a tab, shared by every hook that follows that filter live: the
 * sidebar's pending count and the Approvals or Calls page all follow "call." events, and a browser
 * gives a host only six connections over HTTP/1.1 — two tabs of three streams each would leave
 * every other request of the dashboard waiting. Closed when its last listener leaves.
 */
const sharedStreams = new Map<string, SharedStream>();

function joinSharedStream(key: string, filter: EventStreamFilter, listener: StreamListener): () => void {
  let shared = sharedStreams.get(key);
  if (!shared) {
    const listeners = new Set<StreamListener>();
    const state = { status: "closed" as EventStreamStatus };
    const handle = openEventStream({
      filter,
      onEvent: (event) => {
        for (const each of listeners) each.onEvent(event);
      },
      onGap: (gap) => {
        for (const each of listeners) each.onGap?.(gap);
      },
      onStatus: (status) => {
        state.status = status;
        for (const each of listeners) each.onStatus?.(status);
      },
    });
    shared = {
      handle,
      listeners,
      get status() {
        return state.status;
      },
    };
    sharedStreams.set(key, shared);
  }
  const joined = shared;
  joined.listeners.add(listener);
  listener.onStatus?.(joined.status);
  return () => {
    joined.listeners.delete(listener);
    listener.onStatus?.("closed"); // for this hook the stream is closed, whoever still follows it
    if (joined.listeners.size > 0 || sharedStreams.get(key) !== joined) return;
    sharedStreams.delete(key);
    joined.handle.close();
  };
}

/**
 * Follows the workspace's events while the component is mounted, e.g. to invalidate React Query
 * caches: `useEventStream({ type: "call." }, () => queryClient.invalidateQueries({ queryKey: ["calls"] }))`.
 * `filter: null` pauses; resuming (or changing the filter) continues after the last event seen, so
 * a pause loses nothing. Callbacks may change on every render without reconnecting. Hooks that
 * follow the same filter live share one connection (joinSharedStream).
 */
export function useEventStream(
  filter: EventStreamFilter | null,
  onEvent: (event: RecordedEvent) => void,
  options: { onGap?: (gap: EventGap) => void; resume?: boolean } = {},
): { status: EventStreamStatus; lastEventId: number | undefined } {
  const [status, setStatus] = useState<EventStreamStatus>("closed");
  const [lastEventId, setLastEventId] = useState<number | undefined>(undefined);
  const callbacks = useRef({ onEvent, onGap: options.onGap });
  const lastSeen = useRef<number | undefined>(undefined);
  useEffect(() => {
    callbacks.current = { onEvent, onGap: options.onGap };
  });

  const key = filter === null ? null : JSON.stringify(filter);
  const resume = options.resume ?? true;
  useEffect(() => {
    if (key === null) return;
    const filter = JSON.parse(key) as EventStreamFilter;
    const listener: StreamListener = {
      onEvent: (event) => {
        lastSeen.current = Math.max(lastSeen.current ?? 0, event.id);
        setLastEventId(lastSeen.current);
        callbacks.current.onEvent(event);
      },
      onGap: (gap) => callbacks.current.onGap?.(gap),
      onStatus: setStatus,
    };
    // Live from now on: the tab's shared stream. Resuming after a pause or a new filter: its own,
    // from the last event this hook saw, so nothing in between is lost.
    if (!resume || lastSeen.current === undefined) return joinSharedStream(key, filter, listener);
    const handle = openEventStream({ filter, lastEventId: lastSeen.current, ...listener });
    return () => handle.close();
  }, [key, resume]);

  return { status, lastEventId };
}
