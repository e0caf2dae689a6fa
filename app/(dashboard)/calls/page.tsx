import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Calls" };

export default function CallsPage() {
  return (
    <>
      <PageHeader
        title="Calls"
        description="Every tool call made through Switchboard: who, what, when and how it ended."
      />
      <EmptyState title="No calls yet">
        Tool calls from agents, the gateway and the CLI are recorded here.
      </EmptyState>
    </>
  );
}
