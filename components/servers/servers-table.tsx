"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { DeleteServerButton } from "./delete-server-button";
import { ReplicaSplitBadge } from "./replica-summary";
import { serversListQuery } from "./server-queries";
import { ServerStatusBadge, transportLabels } from "./server-status-badge";
import { ServerTarget } from "./server-target";
import { useLiveServers } from "./use-live-servers";

/** The workspace's servers, their state kept live by the event stream (a slow poll while it is down). */
export function ServersTable({ canManage }: { canManage: boolean }) {
  const poll = useLiveServers();
  const { data: servers, error, isPending } = useQuery({ ...serversListQuery(), refetchInterval: poll });

  if (isPending) return <p className="text-sm text-slate-500">Loading servers…</p>;
  if (error) return <Alert title="Could not load servers">{error.message}</Alert>;
  if (servers.length === 0) {
    return (
      <EmptyState
        title="No MCP servers yet"
        action={canManage ? <ButtonLink href="/servers/new">Add your first server</ButtonLink> : undefined}
      >
        Register a server that speaks MCP over stdio, Streamable HTTP or SSE. Switchboard keeps its
        configuration, and its secrets by reference only.
      </EmptyState>
    );
  }

  return (
    <DataTable
      columns={[
        { label: "Name", className: "w-[20%]" },
        { label: "Transport", className: "w-[16%]" },
        { label: "Target", className: "w-[20%]" },
        { label: "Enabled", className: "w-[9%]" },
        { label: "Status", className: "w-[18%]" },
        { label: "Actions", className: "w-[17%]", srOnly: true },
      ]}
      fixed
    >
      {servers.map((server) => (
        <tr key={server.id} data-testid={`server-row-${server.name}`} className="hover:bg-slate-50/60">
          <td className="px-4 py-3 align-top">
            <Link
              href={`/servers/${server.name}`}
              className="font-medium text-slate-900 hover:text-indigo-700 hover:underline"
            >
              {server.displayName ?? server.name}
            </Link>
            <div className="font-mono text-xs text-slate-500">{server.name}</div>
            {server.description ? (
              <p className="mt-1 line-clamp-2 text-xs text-slate-500">{server.description}</p>
            ) : null}
          </td>
          <td className="px-4 py-3 align-top">
            <Badge tone="blue">{transportLabels[server.transport]}</Badge>
          </td>
          <td className="px-4 py-3 align-top">
            <ServerTarget target={server.target} />
          </td>
          <td className="px-4 py-3 align-top">
            {server.enabled ? <Badge tone="green">On</Badge> : <Badge tone="slate">Off</Badge>}
          </td>
          <td className="px-4 py-3 align-top">
            <div className="flex flex-wrap items-center gap-1">
              <ServerStatusBadge status={server.status} />
              <ReplicaSplitBadge
                replicas={server.replicas}
                summary={server.replicaSummary}
                testId={`server-replicas-${server.name}`}
              />
            </div>
            {server.lastError ? (
              <p className="mt-1 line-clamp-2 break-words text-xs text-red-700" title={server.lastError}>
                {server.lastError}
              </p>
            ) : null}
          </td>
          <td className="px-4 py-3 align-top">
            {canManage ? (
              // Side by side where they fit, stacked in a narrow window: never cut off.
              <div className="flex flex-wrap justify-end gap-1">
                <ButtonLink
                  variant="ghost"
                  href={`/servers/${server.name}/edit`}
                  aria-label={`Edit ${server.name}`}
                >
                  Edit
                </ButtonLink>
                <DeleteServerButton name={server.name} />
              </div>
            ) : null}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
