import type { Metadata } from "next";
import { ServerForm } from "@/components/servers/server-form";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Add server" };

export default function NewServerPage() {
  return (
    <>
      <PageHeader
        title="Add server"
        description="Register an MCP server. Secrets are referenced by name; store their values with PUT /api/v1/secrets/{name}."
      />
      <ServerForm />
    </>
  );
}
