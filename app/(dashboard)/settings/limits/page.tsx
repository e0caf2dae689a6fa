import type { Metadata } from "next";
import { LimitsForm } from "@/components/settings/limits-form";
import { getPageContext } from "@/lib/auth/page-context";
import { getLimitsPolicy } from "@/lib/limits/limits-policy";
import { listPrincipals } from "@/lib/principals/principals";
import { listServers } from "@/lib/servers/registry";

export const metadata: Metadata = { title: "Limits" };
export const dynamic = "force-dynamic";

export default async function LimitsPage() {
  const { db, tenant, canManage } = await getPageContext();
  const [policy, principals, servers] = await Promise.all([
    getLimitsPolicy(db, { tenantId: tenant.id }),
    listPrincipals(db, { tenantId: tenant.id }),
    listServers(db, { tenantId: tenant.id }),
  ]);
  return (
    <LimitsForm
      policy={policy}
      principalNames={principals.map((p) => p.name)}
      serverNames={servers.map((s) => s.name)}
      canManage={canManage}
    />
  );
}
