import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ServerForm } from "@/components/servers/form/server-form";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Add server" };

export default async function NewServerPage() {
  if (!(await getPageContext()).canManage) redirect("/servers");
  return (
    <>
      <PageHeader
        title="Add server"
        description="Register an MCP server. Secrets are referenced by name; set their values in Settings → Secrets."
      />
      <ServerForm />
    </>
  );
}
