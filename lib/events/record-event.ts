import type { DatabaseHandle, Queryable } from "@/lib/db/client";
import { log } from "@/lib/observability/log";
import { processSingleton } from "@/lib/process-singleton";
import type { RecordedEvent, SwitchboardEvent } from "./event-types";
import { EventHub, type EventListener } from "./hub";
import type { EventRelay, EventRelayOptions } from "./relay";
import { StableFeed } from "./stable-feed";

/** The process's one hub, on globalThis so every route bundle (and dev reloads) share it. */
export const processEventHub: EventHub = processSingleton("EventHub", () => new EventHub());

/**
 * Persists first (the id is the order), then NOTIFYs other processes, then publishes here.
 * Inside a transaction (`db` is a tx) publication waits for the commit when a relay runs.
 */
export function recordEvent(
  db: Queryable,
  params: { tenantId: string; event: SwitchboardEvent },
): Promise<RecordedEvent> {
  return processEventHub.record(db, params);
}

/**
 * Every event recorded from now on — by this process, and, once the relay runs
 * (startEventRelay), by every process sharing the database. Each event once; events of one
 * recorder in id order. The listener runs synchronously and must not throw or block: queue work.
 * Returns the unsubscribe function.
 */
export function subscribeEvents(listener: EventListener): () => void {
  return processEventHub.subscribe(listener);
}

/**
 * Starts this process's relay (LISTEN on the shared database); idempotent. The runtime calls it
 * at start; the SSE route calls it too, in case the start-up attempt failed.
 */
export function startEventRelay(handle: DatabaseHandle, options?: EventRelayOptions): Promise<EventRelay> {
  return processEventHub.startRelay(handle, options);
}

const stableFeeds = processSingleton("StableFeeds", () => new WeakMap<DatabaseHandle, StableFeed>());

/**
 * The process's stable feed on a database (stable-feed.ts): what the SSE streams follow. Every
 * event this process publishes — its own, or another's through the relay — tells it to look.
 */
export function stableFeedFor(handle: DatabaseHandle): StableFeed {
  let feed = stableFeeds.get(handle);
  if (!feed) {
    const created = new StableFeed(handle.db, handle.driver, {
      onError: (error) => log.error(`event feed: ${(error as Error).message}`),
    });
    const unsubscribe = processEventHub.subscribe(() => created.nudge());
    const close = handle.close.bind(handle);
    handle.close = async () => {
      unsubscribe();
      created.stop();
      await close();
    };
    stableFeeds.set(handle, created);
    feed = created;
  }
  return feed;
}

export type { EventListener, RecordedEvent };
