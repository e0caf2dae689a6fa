import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { ServerForm } from "@/components/servers/form/server-form";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";
import { isAppError } from "@/lib/errors";
import { getServer } from "@/lib/servers/registry";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Edit ${(await params).name}` };
}

export default async function EditServerPage({ params }: Props) {
  const { name } = await params;
  const { db, tenant, canManage } = await getPageContext();
  if (!canManage) redirect("/servers");
  const server = await getServer(db, { tenantId: tenant.id, name }).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });
  return (
    <>
      <PageHeader
        title={`Edit ${server.displayName ?? server.name}`}
        description={<code className="font-mono">{server.name}</code>}
      />
      <ServerForm server={server} />
    </>
  );
}
