import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ServerDetail } from "@/components/servers/detail/server-detail";
import { serverKeys } from "@/components/servers/server-queries";
import { getPageContext } from "@/lib/auth/page-context";
import { isAppError } from "@/lib/errors";
import { getServer } from "@/lib/servers/registry";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await params).name };
}

export default async function ServerDetailPage({ params }: Props) {
  const { name } = await params;
  const { db, tenant, canManage } = await getPageContext();
  const server = await getServer(db, { tenantId: tenant.id, name }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });
  // Prefetch the server so the header renders at once; the tabs load their data through the API.
  const queryClient = new QueryClient();
  queryClient.setQueryData(serverKeys.server(server.name), server);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ServerDetail name={server.name} canManage={canManage} />
    </HydrationBoundary>
  );
}
