import { queryOptions } from "@tanstack/react-query";
import { type CallsPage, callKeys, callsPath } from "@/components/calls/call-queries";
import type { CallOutcome } from "@/lib/calls/types";
import { fetchJson } from "@/lib/client/fetch-json";

export const WINDOW_MINUTES = 30;
export const RECENT_FAILURES = 5;
const WINDOW_PAGE_SIZE = 200;
// Past this many calls in half an hour the chart says "at least": enough to see the shape.
const WINDOW_MAX_PAGES = 5;

export type CallPoint = { at: string; outcome: CallOutcome };
export type CallWindow = { points: CallPoint[]; isCapped: boolean };

/**
 * The calls of the last half hour (time and status only), paging back through GET /api/v1/calls
 * until older than the window. Takes the page reader so the server's prefetch runs the same loop.
 */
export async function collectCallWindow(
  readPage: (query: { limit: number; cursor: string | null }) => Promise<CallsPage>,
  now = Date.now(),
): Promise<CallWindow> {
  const since = now - WINDOW_MINUTES * 60_000;
  const points: CallPoint[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < WINDOW_MAX_PAGES; page++) {
    const { calls, nextCursor }: CallsPage = await readPage({ limit: WINDOW_PAGE_SIZE, cursor });
    for (const call of calls) {
      if (Date.parse(call.createdAt) < since) return { points, isCapped: false };
      points.push({ at: call.createdAt, outcome: call.outcome });
    }
    if (!nextCursor) return { points, isCapped: false };
    cursor = nextCursor;
  }
  return { points, isCapped: true };
}

export const callWindowQuery = () =>
  queryOptions({
    queryKey: callKeys.recentWindow(),
    queryFn: () => collectCallWindow((query) => fetchJson<CallsPage>(callsPath({}, query))),
    // The window slides even when nothing happens.
    refetchInterval: 60_000,
  });

/** What "Recent failures" lists: calls that produced no result, and tools that answered with an error. */
export const FAILURE_OUTCOMES = "failed,tool_error";

export const recentFailuresQuery = () =>
  queryOptions({
    queryKey: callKeys.recentFailures(),
    queryFn: () =>
      fetchJson<CallsPage>(callsPath({ status: FAILURE_OUTCOMES }, { limit: RECENT_FAILURES })).then(
        (r) => r.calls,
      ),
  });
