import type { Metadata } from "next";
import { EventsView } from "@/components/events/events-view";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";

export const metadata: Metadata = { title: "Events" };
export const dynamic = "force-dynamic";

export default async function EventsPage() {
  // Signed-in operators only; the feed itself is read in the browser (history + live stream),
  // where the filters in the URL are known.
  const { tenant } = await getPageContext();
  return (
    <>
      <PageHeader
        title="Events"
        description="The live stream of calls, approvals, health changes and catalog drift. Events carry who and what, never arguments or results."
      />
      {/* Keyed by workspace: switching remounts it, so the stream follows the new one. */}
      <EventsView key={tenant.id} />
    </>
  );
}
