import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { CALLS_PAGE_SIZE, type CallFilters, callKeys, cleanFilters } from "@/components/calls/call-queries";
import { CallsView } from "@/components/calls/calls-view";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";
import { listCalls } from "@/lib/calls/read-calls";

export const metadata: Metadata = { title: "Calls" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function CallsPage({ searchParams }: Props) {
  const { db, tenant } = await getPageContext();
  const params = await searchParams;
  const one = (name: keyof CallFilters) => (typeof params[name] === "string" ? params[name] : undefined);
  const filters = cleanFilters({
    status: one("status"),
    server: one("server"),
    tool: one("tool"),
    requester: one("requester"),
  });
  const queryClient = new QueryClient();
  // Prefetch the first page of what the URL asks for; a filter the API refuses is left to the
  // client, which shows the API's message where the table would be.
  const first = await listCalls(db, {
    tenantId: tenant.id,
    reader: { kind: "workspace" },
    query: { ...(filters as Record<string, string>), limit: String(CALLS_PAGE_SIZE) },
  }).catch(() => null);
  if (first) queryClient.setQueryData(callKeys.list(filters), { pages: [first], pageParams: [null] });

  return (
    <>
      <PageHeader
        title="Calls"
        description="Every tool call made through Switchboard: who, what, when and how it ended."
      />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <CallsView key={tenant.id} />
      </HydrationBoundary>
    </>
  );
}
