import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { callKeys } from "@/components/calls/call-queries";
import { CallDetail } from "@/components/calls/detail/call-detail";
import { decisionRightsFor } from "@/lib/approvals/decision-rights";
import { getPageContext } from "@/lib/auth/page-context";
import { getCall } from "@/lib/calls/read-calls";
import { isAppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Call ${(await params).id.slice(0, 8)}` };
}

export default async function CallPage({ params }: Props) {
  const { id } = await params;
  const { db, tenant, actor, canDecide } = await getPageContext();
  const detail = await getCall(db, { tenantId: tenant.id, reader: { kind: "workspace" }, callId: id }).catch(
    (error: unknown) => {
      if (isAppError(error) && (error.code === "not_found" || error.code === "validation")) notFound();
      throw error;
    },
  );
  // Said before anyone clicks: whether this member may approve or deny it here (a held call only).
  const rights = await decisionRightsFor(db, {
    tenantId: tenant.id,
    callId: id,
    userId: actor.userId,
    canDecide,
  });
  const queryClient = new QueryClient();
  queryClient.setQueryData(callKeys.detail(id), detail);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <CallDetail id={id} rights={rights} />
    </HydrationBoundary>
  );
}
