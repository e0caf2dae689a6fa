import type { Metadata } from "next";
import { InstancePolicyForm } from "@/components/settings/instance/instance-policy-form";
import { OwnersSection } from "@/components/settings/instance/owners-section";
import { StdioReachSection } from "@/components/settings/instance/stdio-reach-section";
import { EmptyState } from "@/components/ui/empty-state";
import { getInstanceOverview } from "@/lib/auth/instance-overview";
import { getPageContext } from "@/lib/auth/page-context";

export const metadata: Metadata = { title: "Instance" };
export const dynamic = "force-dynamic";

export default async function InstancePage() {
  const { db, actor } = await getPageContext();
  if (!actor.instanceOwner) {
    return (
      <EmptyState title="Instance settings are for instance owners">
        Only instance owners can see and change the instance policy. Ask the person who set Switchboard up.
      </EmptyState>
    );
  }
  const overview = await getInstanceOverview(db);
  return (
    <div className="space-y-6">
      <p className="max-w-3xl text-sm text-slate-600">
        The instance policy applies to every workspace on this Switchboard: what their servers may run on this
        machine and reach from it. Each workspace&apos;s own Settings → Egress can only narrow it.
      </p>
      <OwnersSection owners={overview.owners} currentUserId={actor.userId} />
      <StdioReachSection stdio={overview.stdio} searchPath={overview.searchPath} />
      <InstancePolicyForm policy={overview.policy} />
    </div>
  );
}
