import { queryOptions } from "@tanstack/react-query";
import type { CallStats } from "@/lib/calls/types";
import { fetchJson } from "@/lib/client/fetch-json";
import { callKeys } from "./call-queries";

/** GET /api/v1/stats/calls, for the Overview (every server) and a server's page (its own). */

export const STATS_WINDOW = "1h";

// Under callKeys.all: a call event that refreshes the call lists refreshes the statistics too.
export const callStatsKey = (server?: string) =>
  [...callKeys.all, "stats", STATS_WINDOW, server ?? "*"] as const;

export const callStatsPath = (server?: string) =>
  `/api/v1/stats/calls?window=${STATS_WINDOW}${server ? `&server=${encodeURIComponent(server)}` : ""}`;

export const callStatsQuery = (server?: string) =>
  queryOptions({
    queryKey: callStatsKey(server),
    queryFn: () => fetchJson<CallStats>(callStatsPath(server)),
    // The hour slides even when no call happens.
    refetchInterval: 60_000,
  });
