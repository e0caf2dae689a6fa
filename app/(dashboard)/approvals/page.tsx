import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { AllowRulesView } from "@/components/approvals/allow-rules-view";
import { approvalKeys, DECIDED_PAGE_SIZE, PENDING_LIMIT } from "@/components/approvals/approval-queries";
import { ApprovalsTabs } from "@/components/approvals/approvals-tabs";
import { ApprovalsView } from "@/components/approvals/approvals-view";
import { ElicitationQueue } from "@/components/approvals/elicitation-queue";
import { PageHeader } from "@/components/ui/page-header";
import { listApprovals } from "@/lib/approvals/list-approvals";
import { getPageContext } from "@/lib/auth/page-context";

export const metadata: Metadata = { title: "Approvals" };
export const dynamic = "force-dynamic";

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<{ tab?: string }> }) {
  const { db, tenant, canDecide, canManage, actor } = await getPageContext();
  const description =
    "Risky tool calls wait here until an operator approves or denies them. Each is decided exactly once.";
  if ((await searchParams).tab === "rules") {
    return (
      <>
        <PageHeader title="Approvals" description={description} />
        <ApprovalsTabs current="rules" />
        <AllowRulesView key={tenant.id} canManage={canManage} userId={actor.userId} />
      </>
    );
  }
  // The same queries the client runs (same limits), so the first paint has the queue and the
  // event stream only has to keep it fresh. One after the other: each may expire overdue approvals.
  const pending = await listApprovals(db, {
    tenantId: tenant.id,
    query: { status: "pending", limit: String(PENDING_LIMIT) },
  });
  const decided = await listApprovals(db, {
    tenantId: tenant.id,
    query: { status: "decided", limit: String(DECIDED_PAGE_SIZE) },
  });
  const queryClient = new QueryClient();
  queryClient.setQueryData(approvalKeys.pending(), pending);
  queryClient.setQueryData(approvalKeys.decided(), { pages: [decided], pageParams: [null] });

  return (
    <>
      <PageHeader title="Approvals" description={description} />
      <ApprovalsTabs current="queue" />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ElicitationQueue key={`questions-${tenant.id}`} canDecide={canDecide} />
        <ApprovalsView key={tenant.id} canDecide={canDecide} />
      </HydrationBoundary>
    </>
  );
}
