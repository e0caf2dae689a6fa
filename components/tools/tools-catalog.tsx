"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { parseAsString, useQueryStates } from "nuqs";
import { useMemo, useState } from "react";
import { ServerStatusBadge } from "@/components/servers/server-status-badge";
import { Button, ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import { BulkBar } from "./bulk-bar";
import { SelectAllBox } from "./select-all-box";
import { noFilters, ToolFilters } from "./tool-filters";
import {
  type GovernedToolDto,
  TOOLS_PAGE_SIZE,
  toolsPageQuery,
  unclassifiedCountQuery,
} from "./tool-queries";
import { ToolRow } from "./tool-row";
import { useCatalogEvents } from "./use-catalog-events";
import { useDriftedToolIds } from "./use-drifted-tools";

// The filters live in the query string, so a filtered view can be linked and survives a reload;
// an empty one is left out of the URL.
const any = parseAsString.withDefault("");
const filterParams = { q: any, server: any, effect: any, status: any };
const count = (n: number) => n.toLocaleString("en-US");

/**
 * /tools: the tools of every server, grouped by server, with the effect editor beside the hints.
 * The server searches, filters and pages (a workspace may have thousands); selection, bulk changes
 * and every row's controls act on the rows loaded here.
 */
export function ToolsCatalog({ canManage }: { canManage: boolean }) {
  const [filters, setFilters] = useQueryStates(filterParams);
  const query = useInfiniteQuery({ ...toolsPageQuery(filters), placeholderData: keepPreviousData });
  const { data: unclassified } = useQuery(unclassifiedCountQuery());
  const tools = useMemo(() => query.data?.pages.flatMap((page) => page.tools) ?? [], [query.data]);
  const drifted = useDriftedToolIds(tools);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  useCatalogEvents();

  const total = query.data?.pages[0]?.total ?? 0;
  const isFiltered = Object.values(filters).some(Boolean);
  if (query.data && total === 0 && !isFiltered && !query.isPlaceholderData) {
    return (
      <EmptyState
        title="No tools discovered yet"
        action={<ButtonLink href="/servers">Go to servers</ButtonLink>}
      >
        Tools appear here, live, once Switchboard connects to a server and it answers tools/list.
      </EmptyState>
    );
  }

  // Only loaded tools count: one filtered out (or gone from the catalog) drops out of the selection.
  const selectedTools = tools.filter((tool) => selected.has(tool.id));
  const setSelection = (ids: readonly string[], isSelected: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) isSelected ? next.add(id) : next.delete(id);
      return next;
    });
  const isSearching = query.isFetching && query.isPlaceholderData;

  return (
    <div>
      <p className="mb-3 max-w-3xl text-xs text-slate-500">
        {unclassified !== undefined ? `${count(unclassified)} unclassified. ` : ""}A tool nobody has
        classified is enforced as <strong>external-write</strong>. Hints come from the server itself and are
        untrusted.
        {canManage ? "" : " Only admins change effects, approval rules and enablement."}
      </p>
      <ToolFilters filters={filters} onChange={(patch) => void setFilters(patch)} />
      {canManage && selectedTools.length > 0 ? (
        <BulkBar tools={selectedTools} onDone={() => setSelected(new Set())} />
      ) : null}
      {!query.data ? (
        <QueryFallback error={query.error} what="tools" />
      ) : (
        <>
          <p role="status" className="mb-3 text-sm text-slate-600">
            {isSearching
              ? "Searching…"
              : `Showing ${count(tools.length)} of ${count(total)} ${isFiltered ? "matching " : ""}tool${total === 1 ? "" : "s"}`}
          </p>
          {query.error ? (
            <p role="alert" className="mb-3 text-xs text-amber-800">
              {query.isPlaceholderData ? "Could not search" : "Could not refresh"}: {query.error.message}{" "}
              Showing the last list received.
            </p>
          ) : null}
          {tools.length === 0 ? (
            <EmptyState
              title="No tool matches these filters"
              action={
                <Button variant="secondary" onClick={() => void setFilters(noFilters)}>
                  Clear filters
                </Button>
              }
            >
              Search looks in each tool's name, server, title and description.
            </EmptyState>
          ) : (
            <div className={isSearching ? "opacity-60 transition-opacity" : undefined}>
              {groupByServer(tools).map(([server, serverTools]) => (
                <ServerSection
                  key={server}
                  server={server}
                  tools={serverTools}
                  drifted={drifted}
                  selection={canManage ? { selected, onChange: setSelection } : undefined}
                  canManage={canManage}
                />
              ))}
            </div>
          )}
          {query.hasNextPage ? (
            <div className="flex items-center gap-3">
              <Button
                variant="secondary"
                disabled={query.isFetchingNextPage || isSearching}
                onClick={() => void query.fetchNextPage()}
              >
                {query.isFetchingNextPage
                  ? "Loading…"
                  : `Load ${count(Math.min(TOOLS_PAGE_SIZE, total - tools.length))} more`}
              </Button>
              <span className="text-xs text-slate-500">
                {count(total - tools.length)} more {isFiltered ? "match" : "in this workspace"}
              </span>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

function ServerSection({
  server,
  tools,
  drifted,
  selection,
  canManage,
}: {
  server: string;
  tools: GovernedToolDto[];
  drifted: ReadonlySet<string>;
  selection:
    | { selected: ReadonlySet<string>; onChange: (ids: readonly string[], on: boolean) => void }
    | undefined;
  canManage: boolean;
}) {
  return (
    <section aria-labelledby={`server-${server}`} className="mb-6">
      <div className="mb-2 flex flex-wrap items-center gap-2">
        {selection ? (
          <SelectAllBox
            server={server}
            tools={tools}
            selected={selection.selected}
            onChange={selection.onChange}
          />
        ) : null}
        <h2 id={`server-${server}`} className="text-sm font-semibold text-slate-900">
          <Link href={`/servers/${encodeURIComponent(server)}`} className="hover:underline">
            {server}
          </Link>
        </h2>
        <ServerStatusBadge status={tools[0]?.serverStatus ?? "unknown"} />
        <span className="text-xs text-slate-500">{tools.length} shown</span>
      </div>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
        {tools.map((tool) => (
          <ToolRow
            key={tool.id}
            tool={tool}
            isDrifted={drifted.has(tool.id)}
            canManage={canManage}
            selection={
              selection
                ? {
                    isSelected: selection.selected.has(tool.id),
                    onToggle: () => selection.onChange([tool.id], !selection.selected.has(tool.id)),
                  }
                : undefined
            }
          />
        ))}
      </ul>
    </section>
  );
}

/** The loaded tools by server, servers in name order (a later page may add to an earlier server). */
function groupByServer(tools: GovernedToolDto[]): [string, GovernedToolDto[]][] {
  const groups = new Map<string, GovernedToolDto[]>();
  for (const tool of tools) {
    const group = groups.get(tool.serverName);
    if (group) group.push(tool);
    else groups.set(tool.serverName, [tool]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
