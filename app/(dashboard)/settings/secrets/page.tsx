import type { Metadata } from "next";
import { SecretsPanel } from "@/components/settings/secrets-panel";
import { getPageContext } from "@/lib/auth/page-context";
import { listSecretOverview } from "@/lib/secrets/secret-overview";

export const metadata: Metadata = { title: "Secrets" };
export const dynamic = "force-dynamic";

export default async function SecretsPage() {
  const { db, tenant, canManage } = await getPageContext();
  const entries = await listSecretOverview(db, { tenantId: tenant.id });
  return <SecretsPanel entries={entries} canManage={canManage} />;
}
