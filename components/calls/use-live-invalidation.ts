"use client";

import { type QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { type EventStreamFilter, type EventStreamStatus, useEventStream } from "@/lib/client/event-stream";
import type { RecordedEvent } from "@/lib/events/event-types";

// A burst of events (requested → approval required, or a batch decided) becomes one refetch.
const BATCH_MS = 150;

/**
 * Keeps React Query caches live from the SSE stream: each event invalidates the keys `keysFor`
 * returns. Whenever the stream (re)opens, and after a gap marker, every key in `allKeys` is
 * refetched too: whatever happened between the page's first fetch and the stream opening would
 * otherwise be missed until the next event.
 */
export function useLiveInvalidation(
  filter: EventStreamFilter,
  keysFor: (event: RecordedEvent) => readonly QueryKey[],
  allKeys: readonly QueryKey[],
): EventStreamStatus {
  const queryClient = useQueryClient();
  const queued = useRef(new Map<string, QueryKey>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const allKeysRef = useRef(allKeys);
  useEffect(() => {
    allKeysRef.current = allKeys;
  });

  const invalidate = (keys: readonly QueryKey[]) => {
    for (const key of keys) queued.current.set(JSON.stringify(key), key);
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      const batch = [...queued.current.values()];
      queued.current.clear();
      const unanswered = batch.filter((queryKey) => hasFirstFetchInFlight(queryClient, queryKey));
      for (const queryKey of batch) void queryClient.invalidateQueries({ queryKey });
      // Invalidating joins a first fetch still in flight rather than starting another, and that
      // fetch may have been answered before the event: ask again once it has answered.
      if (unanswered.length > 0) invalidate(unanswered);
    }, BATCH_MS);
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  const { status } = useEventStream(filter, (event) => invalidate(keysFor(event)), {
    onGap: () => invalidate(allKeysRef.current),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: refetch on each transition to "open" only
  useEffect(() => {
    if (status === "open") invalidate(allKeysRef.current);
  }, [status]);

  return status;
}

function hasFirstFetchInFlight(queryClient: QueryClient, queryKey: QueryKey): boolean {
  return queryClient
    .getQueryCache()
    .findAll({ queryKey })
    .some((query) => query.state.fetchStatus === "fetching" && query.state.data === undefined);
}
