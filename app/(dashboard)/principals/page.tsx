import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { CreatePrincipal } from "@/components/principals/create-principal";
import { principalKeys } from "@/components/principals/principal-queries";
import { PrincipalsTable } from "@/components/principals/principals-table";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";
import { listPrincipals } from "@/lib/principals/principals";

export const metadata: Metadata = { title: "Principals" };
export const dynamic = "force-dynamic";

export default async function PrincipalsPage() {
  const queryClient = new QueryClient();
  const { db, tenant, canManage } = await getPageContext();
  queryClient.setQueryData(principalKeys.list(), await listPrincipals(db, { tenantId: tenant.id }));

  return (
    <>
      <PageHeader
        title="Principals"
        description="Agents and MCP clients that call tools through the gateway, each with keys of its own. Deny by default: a principal may call only the tools its grants name."
      />
      {canManage ? <CreatePrincipal /> : null}
      <HydrationBoundary state={dehydrate(queryClient)}>
        <PrincipalsTable canManage={canManage} />
      </HydrationBoundary>
    </>
  );
}
