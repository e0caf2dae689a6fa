import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { agentKeys } from "@/components/agent/agent-queries";
import { RunDetail } from "@/components/agent/run-detail";
import { getAgentRun } from "@/lib/agents/agent-runs";
import { type DecisionRights, decisionRightsFor } from "@/lib/approvals/decision-rights";
import { getPageContext } from "@/lib/auth/page-context";
import { isAppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Agent run ${(await params).id.slice(0, 8)}` };
}

export default async function AgentRunPage({ params }: Props) {
  const { id } = await params;
  const { db, tenant, actor, canManage, canDecide } = await getPageContext();
  const run = await getAgentRun(db, { tenantId: tenant.id, id }).catch((error: unknown) => {
    if (isAppError(error) && (error.code === "not_found" || error.code === "validation")) notFound();
    throw error;
  });
  // Said before anyone clicks, for the calls already waiting: whether this member may approve them.
  const rights: Record<string, DecisionRights> = {};
  for (const step of run.steps) {
    if (step.kind !== "tool_result" || step.status !== "pending_approval" || !step.callId) continue;
    rights[step.callId] = await decisionRightsFor(db, {
      tenantId: tenant.id,
      callId: step.callId,
      userId: actor.userId,
      canDecide,
    });
  }
  const queryClient = new QueryClient();
  queryClient.setQueryData(agentKeys.run(id), run);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <RunDetail id={id} canManage={canManage} canDecide={canDecide} rights={rights} />
    </HydrationBoundary>
  );
}
