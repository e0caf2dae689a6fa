import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { OwnCallRightsProvider } from "@/components/playground/own-call-rights";
import { PlaygroundTabs } from "@/components/playground/playground-tabs";
import { toolKeys } from "@/components/tools/tool-queries";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { ownCallRights } from "@/lib/approvals/decision-rights";
import { getPageContext } from "@/lib/auth/page-context";
import { listGovernedTools } from "@/lib/catalog/governed-tools";

export const metadata: Metadata = { title: "Playground" };
export const dynamic = "force-dynamic";

export default async function PlaygroundPage() {
  const queryClient = new QueryClient();
  // canDecide is the services' rule for operators calling tools (lib/calls/requester operatorMayCall).
  const { db, tenant, actor, canDecide } = await getPageContext();
  queryClient.setQueryData(toolKeys.list(), await listGovernedTools(db, { tenantId: tenant.id }));
  // A held call of one's own can be decided right where it waits, when the approval rules allow.
  const rights = await ownCallRights(db, { tenantId: tenant.id, canDecide });

  return (
    <>
      <PageHeader
        title="Playground"
        description={`Call a tool, read a resource or get a prompt as yourself (${actor.name}) through the same governed path as agents: the approval rules apply, and every call is recorded.`}
      />
      {canDecide ? null : (
        <div className="mb-4">
          <Alert tone="info">
            Calling tools needs the approver or admin role in this workspace; you can look, not run.
          </Alert>
        </div>
      )}
      <HydrationBoundary state={dehydrate(queryClient)}>
        <OwnCallRightsProvider rights={rights}>
          <PlaygroundTabs canRun={canDecide} />
        </OwnCallRightsProvider>
      </HydrationBoundary>
    </>
  );
}
