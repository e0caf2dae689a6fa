import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { approvalKeys, PENDING_LIMIT } from "@/components/approvals/approval-queries";
import { callKeys } from "@/components/calls/call-queries";
import { callStatsKey, STATS_WINDOW } from "@/components/calls/call-stats-queries";
import { collectCallWindow, FAILURE_OUTCOMES, RECENT_FAILURES } from "@/components/overview/overview-queries";
import { OverviewView } from "@/components/overview/overview-view";
import { serverKeys } from "@/components/servers/server-queries";
import { PageHeader } from "@/components/ui/page-header";
import { listApprovals } from "@/lib/approvals/list-approvals";
import { getPageContext } from "@/lib/auth/page-context";
import { getCallStats } from "@/lib/calls/call-stats";
import { listCalls } from "@/lib/calls/read-calls";
import { listServers } from "@/lib/servers/registry";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const { db, tenant } = await getPageContext();
  const scope = { tenantId: tenant.id, reader: { kind: "workspace" as const } };
  // The same reads the client makes, so the first paint is complete; the event stream keeps it live.
  const queryClient = new QueryClient();
  queryClient.setQueryData(serverKeys.list(), await listServers(db, { tenantId: tenant.id }));
  queryClient.setQueryData(
    approvalKeys.pending(),
    await listApprovals(db, {
      tenantId: tenant.id,
      query: { status: "pending", limit: String(PENDING_LIMIT) },
    }),
  );
  const failures = await listCalls(db, {
    ...scope,
    query: { status: FAILURE_OUTCOMES, limit: String(RECENT_FAILURES) },
  });
  queryClient.setQueryData(callKeys.recentFailures(), failures.calls);
  queryClient.setQueryData(
    callKeys.recentWindow(),
    await collectCallWindow(({ limit, cursor }) =>
      listCalls(db, { ...scope, query: { limit: String(limit), ...(cursor ? { cursor } : {}) } }),
    ),
  );
  queryClient.setQueryData(
    callStatsKey(),
    await getCallStats(db, { tenantId: tenant.id, query: { window: STATS_WINDOW } }),
  );

  return (
    <>
      <PageHeader title="Overview" description={`${tenant.name}: your MCP servers at a glance.`} />
      <HydrationBoundary state={dehydrate(queryClient)}>
        {/* Keyed by workspace: switching remounts it, so its event stream follows the new one. */}
        <OverviewView key={tenant.id} />
      </HydrationBoundary>
    </>
  );
}
