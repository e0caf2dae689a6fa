import type { Metadata } from "next";
import { EgressForm } from "@/components/settings/egress-form";
import { getPageContext } from "@/lib/auth/page-context";
import { getEgressPolicy } from "@/lib/policy/egress-policy-store";

export const metadata: Metadata = { title: "Egress" };
export const dynamic = "force-dynamic";

export default async function EgressPage() {
  const { db, tenant, canManage } = await getPageContext();
  const policy = await getEgressPolicy(db, { tenantId: tenant.id });
  return <EgressForm policy={policy} canManage={canManage} />;
}
