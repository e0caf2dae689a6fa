import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { CallDto, CallSummary, TimelineEntry } from "@/lib/calls/types";
import { fetchJson } from "@/lib/client/fetch-json";

/** The filters of GET /api/v1/calls that the Calls page offers (each one value; empty = any). */
export type CallFilters = {
  kind?: string;
  status?: string;
  server?: string;
  tool?: string;
  requester?: string;
};
export type CallsPage = { calls: CallSummary[]; nextCursor: string | null };
export type CallDetailDto = { call: CallDto; timeline: TimelineEntry[] };

export const CALLS_PAGE_SIZE = 50;

// Everything about calls sits under ["calls"], so one invalidation after a call event refreshes
// the list, the open call and the overview's figures together.
export const callKeys = {
  all: ["calls"] as const,
  list: (filters: CallFilters) => [...callKeys.all, "list", filters] as const,
  detail: (id: string) => [...callKeys.all, "detail", id] as const,
  recentFailures: () => [...callKeys.all, "recent-failures"] as const,
  recentWindow: () => [...callKeys.all, "recent-window"] as const,
};

/** Only the filters that are set, so `{}` and `{ status: "" }` share one cache entry. */
export function cleanFilters(filters: CallFilters): CallFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => Boolean(value))) as CallFilters;
}

export function callsPath(filters: CallFilters, options: { cursor?: string | null; limit?: number } = {}) {
  const params = new URLSearchParams(cleanFilters(filters) as Record<string, string>);
  params.set("limit", String(options.limit ?? CALLS_PAGE_SIZE));
  if (options.cursor) params.set("cursor", options.cursor);
  return `/api/v1/calls?${params.toString()}`;
}

/** Shared by the server-side prefetch (first page) and the table, which pages on with the cursor. */
export const callsListQuery = (filters: CallFilters) =>
  infiniteQueryOptions({
    queryKey: callKeys.list(cleanFilters(filters)),
    queryFn: ({ pageParam }) => fetchJson<CallsPage>(callsPath(filters, { cursor: pageParam })),
    initialPageParam: null as string | null,
    getNextPageParam: (last: CallsPage) => last.nextCursor,
  });

export const callQuery = (id: string) =>
  queryOptions({
    queryKey: callKeys.detail(id),
    queryFn: () => fetchJson<CallDetailDto>(`/api/v1/calls/${encodeURIComponent(id)}`),
  });
