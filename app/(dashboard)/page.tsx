import Link from "next/link";
import { ServerStatusBadge } from "@/components/servers/server-status-badge";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";
import { listServers } from "@/lib/servers/registry";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const { db, tenant, canManage } = await getPageContext();
  const servers = await listServers(db, { tenantId: tenant.id });
  const enabled = servers.filter((s) => s.enabled).length;

  return (
    <>
      <PageHeader title="Overview" description={`${tenant.name}: your MCP servers at a glance.`} />
      <div className="mb-8 grid gap-4 sm:grid-cols-3">
        <Stat label="Servers" value={servers.length} />
        <Stat label="Enabled" value={enabled} />
        <Stat label="Disabled" value={servers.length - enabled} />
      </div>
      {servers.length === 0 ? (
        <EmptyState
          title="No servers registered"
          action={canManage ? <ButtonLink href="/servers/new">Add a server</ButtonLink> : undefined}
        >
          Start by registering the MCP servers your agents use.
        </EmptyState>
      ) : (
        <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <h2 className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-900">
            Servers
          </h2>
          <ul className="divide-y divide-slate-100">
            {servers.map((s) => (
              <li key={s.id} className="flex items-center justify-between px-4 py-3 text-sm">
                <Link href="/servers" className="font-medium text-slate-900 hover:text-indigo-600">
                  {s.displayName ?? s.name}
                </Link>
                <ServerStatusBadge status={s.status} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-4 py-5 shadow-sm">
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums text-slate-900">{value}</p>
    </div>
  );
}
