import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { CheckAllButton } from "@/components/servers/check-all-button";
import { ExportMenu } from "@/components/servers/export-menu";
import { ImportDialog } from "@/components/servers/import-dialog";
import { serverKeys } from "@/components/servers/server-queries";
import { ServersTable } from "@/components/servers/servers-table";
import { ButtonLink } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";
import { listServers } from "@/lib/servers/registry";

export const metadata: Metadata = { title: "Servers" };
export const dynamic = "force-dynamic";

export default async function ServersPage() {
  // Prefetch on the server so the table renders with data; the client keeps it fresh through the API.
  const queryClient = new QueryClient();
  const { db, tenant, canManage } = await getPageContext();
  queryClient.setQueryData(serverKeys.list(), await listServers(db, { tenantId: tenant.id }));

  return (
    <>
      <PageHeader
        title="Servers"
        description="The MCP servers your agents may reach through Switchboard."
        actions={
          canManage ? (
            <>
              <CheckAllButton />
              <ImportDialog />
              <ButtonLink href="/servers/new">Add server</ButtonLink>
            </>
          ) : undefined
        }
      />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ServersTable canManage={canManage} />
      </HydrationBoundary>
      <div className="mt-6 flex justify-end">
        <ExportMenu />
      </div>
    </>
  );
}
