import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Tools" };

export default function ToolsPage() {
  return (
    <>
      <PageHeader
        title="Tools"
        description="Every tool your servers offer, with its effect class and approval rule."
      />
      <EmptyState title="No tools discovered yet">
        Switchboard lists tools here once it connects to your servers and discovers their catalogs.
      </EmptyState>
    </>
  );
}
