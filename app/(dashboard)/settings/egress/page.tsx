import type { Metadata } from "next";
import { EgressForm } from "@/components/settings/egress-form";
import { EffectivePolicyPanel } from "@/components/settings/instance/effective-policy-panel";
import { getPageContext } from "@/lib/auth/page-context";
import { effectivePolicy } from "@/lib/policy/effective-policy";
import { loadServerPolicies } from "@/lib/servers/server-policy-check";

export const metadata: Metadata = { title: "Egress" };
export const dynamic = "force-dynamic";

export default async function EgressPage() {
  const { db, tenant, actor, canManage } = await getPageContext();
  const { instance, workspace } = await loadServerPolicies(db, { tenantId: tenant.id });
  return (
    <>
      <EgressForm policy={workspace} canManage={canManage} />
      <EffectivePolicyPanel
        effective={effectivePolicy(instance, workspace)}
        isInstanceOwner={actor.instanceOwner}
      />
    </>
  );
}
