import { queryOptions } from "@tanstack/react-query";
import type { CallDto } from "@/lib/calls/types";
import { backoffDelay } from "@/lib/client/backoff";
import { fetchJson } from "@/lib/client/fetch-json";

export type { CallDto };

// Mirrors finishedStatuses in lib/calls/call-view (server code: it pulls the database schema in).
const finished: readonly CallDto["status"][] = ["denied", "expired", "succeeded", "failed", "cancelled"];
export const isFinishedCall = (call: Pick<CallDto, "status">) => finished.includes(call.status);

/** Long enough to rarely re-ask, well under the API's 120 s cap and typical proxy idle timeouts. */
const WAIT_SECONDS = 25;

// Someone is watching this page for the outcome: come back sooner than the event stream does.
const RETRY = { maxMs: 10_000 };

// Its own namespace: the Calls pages' keys may be invalidated often, which would restart this wait.
export const playgroundCallKey = (id: string) => ["playground", "call", id] as const;

/**
 * Follows one call until it is finished: each fetch is a bounded wait that returns as soon as the
 * call ends (the server wakes it, no polling there), and the next one starts right after. A wait
 * that fails is retried with the browser's one jittered backoff, and so is the wait after that.
 */
export const callWaitQuery = (id: string) =>
  queryOptions({
    queryKey: playgroundCallKey(id),
    queryFn: ({ signal }) =>
      fetchJson<{ call: CallDto }>(
        `/api/v1/calls/${encodeURIComponent(id)}/wait?timeoutSeconds=${WAIT_SECONDS}`,
        { signal },
      ).then((r) => r.call),
    refetchInterval: (query) => {
      if (query.state.status === "error") return backoffDelay(query.state.errorUpdateCount, RETRY);
      return query.state.data && isFinishedCall(query.state.data) ? false : 1;
    },
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    staleTime: 0,
    retry: 3,
    retryDelay: (failures) => backoffDelay(failures + 1, RETRY),
  });
