import type { Metadata } from "next";
import { headers } from "next/headers";
import { GatewayNameBudgetCard } from "@/components/settings/gateway-name-budget-card";
import { GatewayStatusCard } from "@/components/settings/gateway-status-card";
import { LoopbackMappingCard } from "@/components/settings/loopback-mapping-card";
import { ToolListSizesCard } from "@/components/settings/tool-list-sizes-card";
import { getPageContext } from "@/lib/auth/page-context";
import { describeGateway, measureToolLists } from "@/lib/gateway/settings/gateway-status";
import { getGatewaySettings } from "@/lib/gateway/settings/loopback-mapping";
import { requestOrigin } from "@/lib/http/request-origin";
import { listPrincipals } from "@/lib/principals/principals";

export const metadata: Metadata = { title: "Gateway" };
export const dynamic = "force-dynamic";

export default async function GatewaySettingsPage() {
  const { db, tenant, canManage } = await getPageContext();
  const [settings, principals, toolLists] = await Promise.all([
    getGatewaySettings(db, { tenantId: tenant.id }),
    listPrincipals(db, { tenantId: tenant.id }),
    measureToolLists(db, { tenantId: tenant.id }),
  ]);
  // The URLs as this operator reached Switchboard, so what they copy works from where they are.
  const gateway = describeGateway(requestOrigin(await headers()));
  return (
    <div className="space-y-6">
      <GatewayStatusCard gateway={gateway} />
      <ToolListSizesCard sizes={toolLists} />
      <GatewayNameBudgetCard budget={settings.gatewayNameBudget} canManage={canManage} />
      <LoopbackMappingCard
        settings={settings}
        principals={principals.map((p) => ({ id: p.id, name: p.name }))}
        canManage={canManage}
      />
    </div>
  );
}
