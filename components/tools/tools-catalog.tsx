"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ServerStatusBadge } from "@/components/servers/server-status-badge";
import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import { BulkBar } from "./bulk-bar";
import { SelectAllBox } from "./select-all-box";
import { type ToolFilter, ToolFilters } from "./tool-filters";
import { toolsListQuery } from "./tool-queries";
import { ToolRow } from "./tool-row";
import { filterTools, groupByServer } from "./tool-search";
import { useCatalogEvents } from "./use-catalog-events";
import { useDriftedToolIds } from "./use-drifted-tools";

/** /tools: every tool of every server, grouped by server, with the effect editor beside the hints. */
export function ToolsCatalog({ canManage }: { canManage: boolean }) {
  const { data: tools, error } = useQuery(toolsListQuery());
  const drifted = useDriftedToolIds(tools);
  const [filter, setFilter] = useState<ToolFilter>({ q: "", server: "", isReviewOnly: false });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  useCatalogEvents();

  if (!tools) return <QueryFallback error={error} what="tools" />;
  if (tools.length === 0) {
    return (
      <EmptyState
        title="No tools discovered yet"
        action={<ButtonLink href="/servers">Go to servers</ButtonLink>}
      >
        Tools appear here, live, once Switchboard connects to a server and it answers tools/list.
      </EmptyState>
    );
  }

  const servers = [...new Set(tools.map((tool) => tool.serverName))].sort();
  const groups = groupByServer(filterTools(tools, filter));
  const unclassified = tools.filter((tool) => !tool.isClassified).length;
  // Only tools still listed count: one that vanished from the catalog drops out of the selection.
  const selectedTools = tools.filter((tool) => selected.has(tool.id));
  const setSelection = (ids: readonly string[], isSelected: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) isSelected ? next.add(id) : next.delete(id);
      return next;
    });

  return (
    <div>
      {error ? (
        <p role="status" className="mb-3 text-xs text-amber-800">
          Could not refresh: {error.message} Showing the last list received.
        </p>
      ) : null}
      <p className="mb-3 max-w-3xl text-xs text-slate-500">
        {tools.length} tools on {servers.length} servers · {unclassified} unclassified. A tool nobody has
        classified is enforced as <strong>external-write</strong>. Hints come from the server itself and are
        untrusted.{canManage ? "" : " Only admins change effects, approval rules and enablement."}
      </p>
      <ToolFilters filter={filter} servers={servers} onChange={setFilter} />
      {canManage && selectedTools.length > 0 ? (
        <BulkBar tools={selectedTools} onDone={() => setSelected(new Set())} />
      ) : null}
      {groups.length === 0 ? (
        <p className="py-6 text-sm text-slate-500">No tool matches these filters.</p>
      ) : (
        groups.map(([server, serverTools]) => {
          const status = serverTools[0]?.serverStatus ?? "unknown";
          return (
            <section key={server} aria-labelledby={`server-${server}`} className="mb-6">
              <div className="mb-2 flex flex-wrap items-center gap-2">
                {canManage ? (
                  <SelectAllBox
                    server={server}
                    tools={serverTools}
                    selected={selected}
                    onChange={setSelection}
                  />
                ) : null}
                <h2 id={`server-${server}`} className="text-sm font-semibold text-slate-900">
                  <Link href={`/servers/${encodeURIComponent(server)}`} className="hover:underline">
                    {server}
                  </Link>
                </h2>
                <ServerStatusBadge status={status} />
                <span className="text-xs text-slate-500">{serverTools.length} shown</span>
              </div>
              <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
                {serverTools.map((tool) => (
                  <ToolRow
                    key={tool.id}
                    tool={tool}
                    isDrifted={drifted.has(tool.id)}
                    canManage={canManage}
                    selection={
                      canManage
                        ? {
                            isSelected: selected.has(tool.id),
                            onToggle: () => setSelection([tool.id], !selected.has(tool.id)),
                          }
                        : undefined
                    }
                  />
                ))}
              </ul>
            </section>
          );
        })
      )}
    </div>
  );
}
