import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Events" };

export default function EventsPage() {
  return (
    <>
      <PageHeader
        title="Events"
        description="The live stream of calls, approvals, health changes and catalog drift."
      />
      <EmptyState title="No events yet">
        Events stream in here live as servers connect and tools are called.
      </EmptyState>
    </>
  );
}
