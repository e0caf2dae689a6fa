"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { parseAsString, useQueryStates } from "nuqs";
import { approvalKeys } from "@/components/approvals/approval-queries";
import { ConnectionBadge } from "@/components/events/connection-badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import { CallFilters } from "./call-filters";
import { callKeys, callsListQuery, type CallFilters as Filters } from "./call-queries";
import { CallsTable } from "./calls-table";
import { useLiveInvalidation } from "./use-live-invalidation";
import { useNow } from "./use-now";

// The filters live in the query string, so a filtered view can be linked and survives a reload;
// an empty one is left out of the URL.
const any = parseAsString.withDefault("");
const filterParams = { kind: any, status: any, server: any, tool: any, requester: any };
const liveKeys = [callKeys.all, approvalKeys.all] as const;

/** Call history, newest first, filtered through the URL and kept live by the event stream. */
export function CallsView() {
  const [filters, setFilters] = useQueryStates(filterParams);
  const query = useInfiniteQuery(callsListQuery(filters));
  const status = useLiveInvalidation({ type: "call." }, () => liveKeys, liveKeys);
  const now = useNow(5_000);
  const calls = query.data?.pages.flatMap((page) => page.calls) ?? [];
  const isFiltered = Object.values(filters).some(Boolean);

  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <CallFilters filters={filters} onChange={(patch: Filters) => setFilters(patch)} seen={calls} />
        <ConnectionBadge status={status} />
      </div>
      {!query.data ? (
        <QueryFallback error={query.error} what="calls" />
      ) : calls.length === 0 ? (
        isFiltered ? (
          <EmptyState
            title="No calls match these filters"
            action={
              <Button
                variant="secondary"
                onClick={() => setFilters({ kind: "", status: "", server: "", tool: "", requester: "" })}
              >
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState title="No calls yet">
            Tool calls from agents, the gateway, the playground and the CLI are recorded here as they happen.
          </EmptyState>
        )
      ) : (
        <>
          <CallsTable calls={calls} now={now} />
          <div className="mt-3 flex items-center justify-between text-xs text-slate-500">
            <span>
              {calls.length} {calls.length === 1 ? "call" : "calls"} shown
            </span>
            {query.hasNextPage ? (
              <Button
                variant="secondary"
                disabled={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                {query.isFetchingNextPage ? "Loading…" : "Load older calls"}
              </Button>
            ) : null}
          </div>
        </>
      )}
      {query.error && query.data ? (
        <p role="status" className="mt-2 text-xs text-amber-800">
          Could not refresh: {query.error.message} Showing the last data received.
        </p>
      ) : null}
    </div>
  );
}
