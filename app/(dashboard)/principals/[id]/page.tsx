import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PrincipalDetail } from "@/components/principals/principal-detail";
import { principalKeys } from "@/components/principals/principal-queries";
import { toolKeys } from "@/components/tools/tool-queries";
import { getPageContext } from "@/lib/auth/page-context";
import { listGovernedTools } from "@/lib/catalog/governed-tools";
import { isAppError } from "@/lib/errors";
import { getPrincipal } from "@/lib/principals/principals";

export const metadata: Metadata = { title: "Principal" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ created?: string }> };

export default async function PrincipalPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { created } = await searchParams;
  const { db, tenant, canManage } = await getPageContext();
  const queryClient = new QueryClient();
  try {
    queryClient.setQueryData(principalKeys.detail(id), await getPrincipal(db, { tenantId: tenant.id, id }));
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  }
  // The grants editor counts what each pattern matches in the live catalog.
  queryClient.setQueryData(toolKeys.list(), await listGovernedTools(db, { tenantId: tenant.id }));

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <PrincipalDetail id={id} canManage={canManage} isJustCreated={created === "1"} />
    </HydrationBoundary>
  );
}
