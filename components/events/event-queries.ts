import { infiniteQueryOptions } from "@tanstack/react-query";
import type { EventStreamFilter } from "@/lib/client/event-stream";
import { fetchJson } from "@/lib/client/fetch-json";
import type { EventPage } from "@/lib/events/types";

/** The Events page's filters, as in its URL and in GET /api/v1/events(/stream): one value each. */
export type EventFilters = { type?: string; server?: string; call?: string };

export const EVENTS_PAGE_SIZE = 50;

export const eventKeys = {
  all: ["events"] as const,
  history: (filters: EventFilters) => [...eventKeys.all, "history", filters] as const,
};

export function toStreamFilter(filters: EventFilters): EventStreamFilter {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => Boolean(v))) as EventStreamFilter;
}

/** Newest first, paging back with `before` ("load older"); live events come from the stream. */
export const eventHistoryQuery = (filters: EventFilters) =>
  infiniteQueryOptions({
    queryKey: eventKeys.history(toStreamFilter(filters) as EventFilters),
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams(toStreamFilter(filters) as Record<string, string>);
      params.set("limit", String(EVENTS_PAGE_SIZE));
      if (pageParam !== null) params.set("before", String(pageParam));
      return fetchJson<EventPage>(`/api/v1/events?${params.toString()}`);
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last: EventPage) => (last.hasMore ? last.cursor.before : null),
  });
