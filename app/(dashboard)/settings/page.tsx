import type { Metadata } from "next";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Workspace policies, members, API keys and secrets." />
      <EmptyState title="Settings arrive with workspaces">
        Members, API keys and policies are managed here. Secrets can already be written through{" "}
        <code className="font-mono">{"PUT /api/v1/secrets/{name}"}</code>.
      </EmptyState>
    </>
  );
}
