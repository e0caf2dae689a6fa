"use client";

import { useQuery } from "@tanstack/react-query";
import { approvalKeys, PENDING_LIMIT, pendingApprovalsQuery } from "@/components/approvals/approval-queries";
import { callKeys } from "@/components/calls/call-queries";
import { callStatsQuery } from "@/components/calls/call-stats-queries";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import { useIsClient, useNow } from "@/components/calls/use-now";
import { ConnectionBadge } from "@/components/events/connection-badge";
import { serverKeys, serversListQuery } from "@/components/servers/server-queries";
import { pollWhileDown } from "@/components/servers/use-live-servers";
import { QueryFallback } from "@/components/ui/query-fallback";
import type { RecordedEvent } from "@/lib/events/event-types";
import { ApprovalsCard } from "./approvals-card";
import { NeedsAuthorizationBanner } from "./authorization-banner";
import { BusiestAgentsCard } from "./busiest-agents-card";
import { CallsChart } from "./calls-chart";
import { bucketByMinute } from "./calls-per-minute";
import { Card } from "./card";
import { FailuresCard } from "./failures-card";
import { callWindowQuery, recentFailuresQuery, WINDOW_MINUTES } from "./overview-queries";
import { ServerRatesCard } from "./server-rates-card";
import { ServersCard } from "./servers-card";

const callLiveKeys = [approvalKeys.all, callKeys.all] as const;
const serverLiveKeys = [serverKeys.list()] as const;
const allKeys = [...callLiveKeys, ...serverLiveKeys];

// Server health checks are frequent; they refresh the server list only, calls refresh the rest.
const keysFor = (event: RecordedEvent) =>
  event.type.startsWith("call.") ? callLiveKeys : event.type.startsWith("server.") ? serverLiveKeys : [];

export function OverviewView() {
  const status = useLiveInvalidation({}, keysFor, allKeys);
  const now = useNow(5_000);
  // The chart's minutes are the browser's (clock and time zone): drawn once hydrated.
  const isClient = useIsClient();
  const servers = useQuery({ ...serversListQuery(), refetchInterval: pollWhileDown(status) });
  const pending = useQuery(pendingApprovalsQuery());
  const failures = useQuery(recentFailuresQuery());
  const callWindow = useQuery(callWindowQuery());
  const stats = useQuery(callStatsQuery());

  return (
    <div>
      <div className="mb-4 flex justify-end">
        <ConnectionBadge status={status} />
      </div>
      {servers.data ? <NeedsAuthorizationBanner servers={servers.data} /> : null}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <div className="lg:col-span-2">
          {servers.data ? (
            <ServersCard servers={servers.data} />
          ) : (
            <QueryFallback error={servers.error} what="servers" />
          )}
        </div>
        {pending.data ? (
          <ApprovalsCard
            pending={pending.data.approvals}
            isCapped={pending.data.approvals.length >= PENDING_LIMIT}
            now={now}
          />
        ) : (
          <QueryFallback error={pending.error} what="approvals" />
        )}
        <div className="lg:col-span-2">
          {stats.data ? (
            <ServerRatesCard servers={stats.data.servers} />
          ) : (
            <QueryFallback error={stats.error} what="call rates" />
          )}
        </div>
        {stats.data ? (
          <BusiestAgentsCard agents={stats.data.busiestAgents} />
        ) : (
          <QueryFallback error={stats.error} what="busiest agents" />
        )}
        <div className="lg:col-span-2">
          {failures.data ? (
            <FailuresCard calls={failures.data} now={now} />
          ) : (
            <QueryFallback error={failures.error} what="recent failures" />
          )}
        </div>
        <Card title={`Calls per minute · last ${WINDOW_MINUTES} min`} testId="overview-calls-per-minute">
          {callWindow.data ? (
            <>
              {isClient ? (
                <CallsChart buckets={bucketByMinute(callWindow.data.points, now, WINDOW_MINUTES)} />
              ) : (
                <div className="h-16" />
              )}
              <p className="mt-2 text-xs text-slate-500">
                {callWindow.data.isCapped ? "At least " : ""}
                {callWindow.data.points.length} {callWindow.data.points.length === 1 ? "call" : "calls"}
                <span className="ml-2 inline-flex items-center gap-1">
                  <span aria-hidden className="h-2 w-2 rounded-sm bg-red-400" /> failed or refused
                </span>
              </p>
            </>
          ) : (
            <QueryFallback error={callWindow.error} what="calls" />
          )}
        </Card>
      </div>
    </div>
  );
}
