import Link from "next/link";
import type { ReactNode } from "react";
import { AccountMenu } from "@/components/shell/account-menu";
import { DashboardShell } from "@/components/shell/dashboard-shell";
import { NavLinks } from "@/components/shell/nav-links";
import { WorkspaceSwitcher } from "@/components/shell/workspace-switcher";
import { getPageContext } from "@/lib/auth/page-context";
import { getInstancePolicy } from "@/lib/policy/instance-policy-store";
import { listMemberships } from "@/lib/tenancy/workspaces";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { db, actor } = await getPageContext();
  const memberships = await listMemberships(db, { userId: actor.userId });
  const workspaces = memberships.map((m) => ({ id: m.tenant.id, name: m.tenant.name, role: m.role }));
  // Offered only when it can succeed: createWorkspace follows the same rule.
  const canCreateWorkspace =
    actor.instanceOwner || (await getInstancePolicy(db)).workspaceCreation === "members";
  const brand = (
    <Link href="/" className="flex items-center gap-2 text-white">
      <span
        aria-hidden
        className="grid h-7 w-7 place-items-center rounded-md bg-indigo-500 text-sm font-bold"
      >
        S
      </span>
      <span className="text-base font-semibold tracking-tight">Switchboard</span>
    </Link>
  );
  return (
    <DashboardShell
      brand={brand}
      sidebar={
        <>
          <WorkspaceSwitcher
            current={actor.tenant.id}
            workspaces={workspaces}
            canCreateWorkspace={canCreateWorkspace}
          />
          <div className="px-3">
            <NavLinks />
          </div>
          <div className="mt-auto">
            <AccountMenu name={actor.name} email={actor.email} role={actor.role} />
          </div>
        </>
      }
    >
      {children}
    </DashboardShell>
  );
}
