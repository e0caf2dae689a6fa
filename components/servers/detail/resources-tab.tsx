"use client";

import { useQuery } from "@tanstack/react-query";
import { cellClass, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { textOf } from "@/components/ui/format";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import type { CatalogEntryDto } from "@/lib/catalog/types";
import { serverResourcesQuery } from "../server-queries";
import { useServerPoll } from "../use-live-servers";

export function ResourcesTab({ name }: { name: string }) {
  const { data, error } = useQuery({ ...serverResourcesQuery(name), refetchInterval: useServerPoll() });
  if (!data) return <QueryFallback error={error} what="resources" />;
  const { resources, resourceTemplates } = data;
  if (resources.length === 0 && resourceTemplates.length === 0) {
    return (
      <EmptyState title="No resources">
        This server lists no resources and no resource templates. Servers that don't declare the resources
        capability have none.
      </EmptyState>
    );
  }
  return (
    <div>
      <SectionTitle aside={`${resources.length}`}>Resources</SectionTitle>
      <EntryTable entries={resources} keyLabel="URI" emptyText="No fixed resources." />
      <SectionTitle aside={`${resourceTemplates.length}`}>Resource templates</SectionTitle>
      <EntryTable entries={resourceTemplates} keyLabel="URI template" emptyText="No resource templates." />
    </div>
  );
}

function EntryTable({
  entries,
  keyLabel,
  emptyText,
}: {
  entries: CatalogEntryDto[];
  keyLabel: string;
  emptyText: string;
}) {
  if (entries.length === 0) return <p className="text-sm text-slate-500">{emptyText}</p>;
  return (
    <DataTable columns={[keyLabel, "Name", "MIME type", "Description"]}>
      {entries.map((entry) => {
        const { name, title, mimeType, description } = entry.definition;
        return (
          <tr key={entry.id}>
            <td className={`${cellClass} max-w-xs break-all font-mono text-xs text-slate-900`}>
              {entry.key}
            </td>
            <td className={cellClass}>
              <span className="text-slate-900">{textOf(title) ?? textOf(name) ?? "—"}</span>
              {textOf(title) && textOf(name) ? (
                <div className="font-mono text-xs text-slate-500">{textOf(name)}</div>
              ) : null}
            </td>
            <td className={`${cellClass} whitespace-nowrap font-mono text-xs text-slate-600`}>
              {textOf(mimeType) ?? "—"}
            </td>
            <td className={`${cellClass} max-w-md whitespace-pre-line text-xs text-slate-600`}>
              {textOf(description) ?? ""}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
