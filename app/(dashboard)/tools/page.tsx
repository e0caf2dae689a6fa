import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { cleanFilters, TOOLS_PAGE_SIZE, toolKeys } from "@/components/tools/tool-queries";
import { ToolsCatalog } from "@/components/tools/tools-catalog";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";
import { countMatchingTools, listGovernedToolsPage } from "@/lib/catalog/governed-tools";

export const metadata: Metadata = { title: "Tools" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ToolsPage({ searchParams }: Props) {
  const { db, tenant, canManage } = await getPageContext();
  const params = await searchParams;
  const one = (name: string) => (typeof params[name] === "string" ? params[name] : undefined);
  const filters = cleanFilters({
    q: one("q"),
    server: one("server"),
    effect: one("effect"),
    status: one("status"),
  });
  // The first page of what the URL asks for, prefetched so the catalog renders with data; the event
  // stream keeps it live. A filter the API refuses is left to the client, which shows its message.
  const queryClient = new QueryClient();
  const [first, unclassified] = await Promise.all([
    listGovernedToolsPage(db, {
      tenantId: tenant.id,
      query: { ...filters, limit: String(TOOLS_PAGE_SIZE) },
    }).catch(() => null),
    countMatchingTools(db, { tenantId: tenant.id, filters: { effect: "unclassified" } }),
  ]);
  if (first) queryClient.setQueryData(toolKeys.page(filters), { pages: [first], pageParams: [null] });
  queryClient.setQueryData(toolKeys.unclassifiedCount(), unclassified);

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
