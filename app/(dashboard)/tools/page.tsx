import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { toolKeys } from "@/components/tools/tool-queries";
import { ToolsCatalog } from "@/components/tools/tools-catalog";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";
import { listGovernedTools } from "@/lib/catalog/governed-tools";

export const metadata: Metadata = { title: "Tools" };
export const dynamic = "force-dynamic";

export default async function ToolsPage() {
  // Prefetched on the server so the catalog renders with data; the event stream keeps it live.
  const queryClient = new QueryClient();
  const { db, tenant, canManage } = await getPageContext();
  queryClient.setQueryData(toolKeys.list(), await listGovernedTools(db, { tenantId: tenant.id }));

  return (
    <>
      <PageHeader
        title="Tools"
        description="Every tool your servers offer: the effect Switchboard enforces, the server's own hints beside it, and when calls need approval."
      />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ToolsCatalog canManage={canManage} />
      </HydrationBoundary>
    </>
  );
}
