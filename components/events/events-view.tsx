"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { parseAsString, useQueryStates } from "nuqs";
import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import type { RecordedEvent } from "@/lib/events/event-types";
import { ConnectionBadge } from "./connection-badge";
import { EventFilters } from "./event-filters";
import { EventGroupRow } from "./event-group-row";
import { groupEvents } from "./event-groups";
import { eventHistoryQuery, type EventFilters as Filters, toStreamFilter } from "./event-queries";
import { EventRow } from "./event-row";
import { useLiveEvents } from "./use-live-events";

// Empty filters are left out of the URL.
const any = parseAsString.withDefault("");
const filterParams = { type: any, server: any, call: any };

/** The filters live in the URL; the feed starts afresh (history + stream) whenever they change. */
export function EventsView() {
  const [filters, setFilters] = useQueryStates(filterParams);
  const feedKey = JSON.stringify(toStreamFilter(filters));
  return (
    <div>
      <EventFilters key={filters.call} filters={filters} onChange={setFilters} />
      <EventFeed key={feedKey} filters={filters} />
    </div>
  );
}

function EventFeed({ filters }: { filters: Filters }) {
  const history = useInfiniteQuery(eventHistoryQuery(filters));
  const { live, heldCount, isPaused, status, pause, resume } = useLiveEvents(toStreamFilter(filters));
  // While paused the list shows nothing newer than what was on screen when the pause began.
  const [ceiling, setCeiling] = useState<number | null>(null);
  const hasOpened = useRef(false);
  const { refetch } = history;

  // The history (possibly cached from an earlier visit) and the stream start apart; refetching
  // it once the stream is first open covers anything recorded in between. Later reconnects
  // resume from Last-Event-ID and need nothing. The merge below drops what both deliver.
  useEffect(() => {
    if (status !== "open" || hasOpened.current) return;
    hasOpened.current = true;
    void refetch();
  }, [status, refetch]);

  const events = useMemo(() => {
    const byId = new Map<number, RecordedEvent>();
    for (const event of [...live, ...(history.data?.pages.flatMap((p) => p.events) ?? [])]) {
      byId.set(event.id, event);
    }
    const all = [...byId.values()].sort((a, b) => b.id - a.id);
    return ceiling === null ? all : all.filter((event) => event.id <= ceiling);
  }, [live, history.data, ceiling]);

  // Runs of repeats fold into one row; recomputed as events arrive, so a live one extends its run.
  const items = useMemo(() => groupEvents(events), [events]);

  const togglePause = () => {
    if (isPaused) {
      setCeiling(null);
      resume();
    } else {
      setCeiling(events[0]?.id ?? 0);
      pause();
    }
  };

  return (
    <div className="mt-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <ConnectionBadge status={status} />
          {isPaused ? (
            <span role="status" className="text-xs font-medium text-amber-800" data-testid="held-count">
              Paused · {heldCount} new
            </span>
          ) : null}
        </div>
        <Button variant="secondary" onClick={togglePause} aria-pressed={isPaused}>
          {isPaused ? `Resume${heldCount ? ` (${heldCount} new)` : ""}` : "Pause"}
        </Button>
      </div>
      {!history.data ? (
        <QueryFallback error={history.error} what="events" />
      ) : events.length === 0 ? (
        <EmptyState
          title={Object.values(filters).some(Boolean) ? "No events match these filters" : "No events yet"}
        >
          Events stream in here live as servers connect and tools are called.
        </EmptyState>
      ) : (
        <ol
          aria-label="Events, newest first"
          className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm"
        >
          {items.map((item) =>
            item.kind === "group" ? (
              <EventGroupRow key={item.key} group={item} />
            ) : (
              <EventRow key={item.event.id} event={item.event} />
            ),
          )}
        </ol>
      )}
      {history.hasNextPage ? (
        <div className="mt-3 flex justify-center">
          <Button
            variant="secondary"
            disabled={history.isFetchingNextPage}
            onClick={() => void history.fetchNextPage()}
          >
            {history.isFetchingNextPage ? "Loading…" : "Load older events"}
          </Button>
        </div>
      ) : null}
      {history.error && history.data ? (
        <p role="status" className="mt-2 text-xs text-amber-800">
          Could not load more: {history.error.message}
        </p>
      ) : null}
    </div>
  );
}
