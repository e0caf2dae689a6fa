"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import type { ReactNode } from "react";
import { serversListQuery } from "@/components/servers/server-queries";
import { ServerStatusBadge } from "@/components/servers/server-status-badge";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { inputClass } from "@/components/ui/field";
import { QueryFallback } from "@/components/ui/query-fallback";
import type { ServerDto } from "@/lib/servers/types";

/**
 * The enabled servers, one chosen by `?server=` (shared by the Resources and Prompts tabs, so a
 * link or a reload keeps it), and what to show for the chosen one.
 */
export function WithChosenServer({ children }: { children: (server: ServerDto) => ReactNode }) {
  const { data: servers, error } = useQuery(serversListQuery());
  const [name, setName] = useQueryState("server");
  if (!servers) return <QueryFallback error={error} what="servers" />;
  const enabled = servers.filter((server) => server.enabled);
  if (enabled.length === 0) {
    return (
      <EmptyState title="No enabled servers" action={<ButtonLink href="/servers">Go to servers</ButtonLink>}>
        Resources and prompts come from enabled servers. None is enabled yet.
      </EmptyState>
    );
  }
  const chosen = enabled.find((server) => server.name === name);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-64">
          <label htmlFor="inspect-server" className="block text-sm font-medium text-slate-800">
            Server
          </label>
          <select
            id="inspect-server"
            className={`${inputClass} mt-1`}
            value={chosen?.name ?? ""}
            onChange={(event) => void setName(event.target.value || null)}
          >
            <option value="">Choose a server…</option>
            {enabled.map((server) => (
              <option key={server.id} value={server.name}>
                {server.displayName ? `${server.displayName} (${server.name})` : server.name}
              </option>
            ))}
          </select>
        </div>
        {chosen ? <ServerStatusBadge status={chosen.status} /> : null}
      </div>
      {chosen ? (
        children(chosen)
      ) : name ? (
        <EmptyState title={`${name} is not available`}>It does not exist, or it is disabled.</EmptyState>
      ) : null}
    </div>
  );
}

/** The two columns of a tab: what to ask on the left, the answer on the right. */
export function InspectColumns({ form, result }: { form: ReactNode; result: ReactNode }) {
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">{form}</section>
      <div>{result}</div>
    </div>
  );
}

/** The right column before, while and after asking (the outcome itself is the caller's). */
export function ResultArea({
  isPending,
  error,
  idle,
  children,
}: {
  isPending: boolean;
  error: Error | null;
  idle: ReactNode;
  children: ReactNode;
}) {
  if (isPending) {
    return (
      <p
        role="status"
        className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-600 shadow-sm"
      >
        <span
          aria-hidden
          className="h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600"
        />
        Asking the server… one held for approval shows its call id in a moment.
      </p>
    );
  }
  if (error) {
    return <Alert title="Nothing was asked of the server">{error.message}</Alert>;
  }
  return <>{children ?? idle}</>;
}
