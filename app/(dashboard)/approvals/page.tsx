import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Approvals" };

export default function ApprovalsPage() {
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Risky tool calls wait here until an operator approves or denies them."
      />
      <EmptyState title="Nothing is waiting for approval">
        Calls that need a person's decision appear here the moment they are made.
      </EmptyState>
    </>
  );
}
