import Link from "next/link";
import type { ReactNode } from "react";
import { AccountMenu } from "@/components/shell/account-menu";
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
  return (
    <div className="flex min-h-screen">
      <aside className="sticky top-0 flex h-screen w-60 shrink-0 flex-col gap-5 bg-slate-900 py-5">
        <Link href="/" className="flex items-center gap-2 px-6 text-white">
          <span
            aria-hidden
            className="grid h-7 w-7 place-items-center rounded-md bg-indigo-500 text-sm font-bold"
          >
            S
          </span>
          <span className="text-base font-semibold tracking-tight">Switchboard</span>
        </Link>
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
      </aside>
      <main className="min-w-0 flex-1 px-8 py-8">
        <div className="mx-auto max-w-6xl">{children}</div>
      </main>
    </div>
  );
}
