import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { agentKeys } from "@/components/agent/agent-queries";
import { AgentView } from "@/components/agent/agent-view";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { listAgentRuns } from "@/lib/agents/agent-runs";
import { listModelConnections } from "@/lib/agents/model-connections";
import { getPageContext } from "@/lib/auth/page-context";
import { listPrincipals } from "@/lib/principals/principals";
import { listSecrets } from "@/lib/secrets/secrets";

export const metadata: Metadata = { title: "Agent" };
export const dynamic = "force-dynamic";

export default async function AgentPage() {
  const { db, tenant, canManage } = await getPageContext();
  const queryClient = new QueryClient();
  queryClient.setQueryData(agentKeys.runs(), await listAgentRuns(db, { tenantId: tenant.id }));
  queryClient.setQueryData(agentKeys.connections(), await listModelConnections(db, { tenantId: tenant.id }));
  // Only what the forms need, and only for those who see them: names, never a secret's value.
  const principals = canManage
    ? (await listPrincipals(db, { tenantId: tenant.id })).map(({ id, name }) => ({ id, name }))
    : [];
  const secretNames = canManage ? (await listSecrets(db, { tenantId: tenant.id })).map((s) => s.name) : [];

  return (
    <>
      <PageHeader
        title="Agent"
        description="Run a model in a bounded tool-calling loop as one of your principals: every tool call it makes goes through the gateway's governed path, so grants, approval rules and the call log apply as for any agent."
      />
      {canManage ? null : (
        <div className="mb-4">
          <Alert tone="info">
            Starting runs and adding model connections is for the workspace's admins; you can follow the runs.
          </Alert>
        </div>
      )}
      <HydrationBoundary state={dehydrate(queryClient)}>
        <AgentView key={tenant.id} canManage={canManage} principals={principals} secretNames={secretNames} />
      </HydrationBoundary>
    </>
  );
}
