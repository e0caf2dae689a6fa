"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { cellClass, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { isRecord, textOf } from "@/components/ui/format";
import { QueryFallback } from "@/components/ui/query-fallback";
import { serverPromptsQuery } from "../server-queries";
import { useServerPoll } from "../use-live-servers";

export function PromptsTab({ name }: { name: string }) {
  const { data: prompts, error } = useQuery({
    ...serverPromptsQuery(name),
    refetchInterval: useServerPoll(),
  });
  if (!prompts) return <QueryFallback error={error} what="prompts" />;
  if (prompts.length === 0) {
    return (
      <EmptyState title="No prompts">
        This server lists no prompts. Servers that don't declare the prompts capability have none.
      </EmptyState>
    );
  }
  return (
    <DataTable columns={["Name", "Description", "Arguments"]}>
      {prompts.map((prompt) => {
        const { title, description } = prompt.definition;
        const args = Array.isArray(prompt.definition.arguments)
          ? prompt.definition.arguments.filter(isRecord)
          : [];
        return (
          <tr key={prompt.id}>
            <td className={cellClass}>
              <code className="font-mono text-xs font-medium text-slate-900">{prompt.key}</code>
              {textOf(title) ? <div className="text-sm text-slate-700">{textOf(title)}</div> : null}
            </td>
            <td className={`${cellClass} max-w-md whitespace-pre-line text-xs text-slate-600`}>
              {textOf(description) ?? ""}
            </td>
            <td className={cellClass}>
              {args.length === 0 ? (
                <span className="text-xs text-slate-400">none</span>
              ) : (
                <ul className="space-y-1">
                  {args.map((arg, index) => (
                    <li key={textOf(arg.name) ?? index} className="text-xs">
                      <code className="font-mono font-medium text-slate-900">{textOf(arg.name) ?? "?"}</code>{" "}
                      {arg.required === true ? (
                        <Badge tone="amber">required</Badge>
                      ) : (
                        <span className="text-slate-400">optional</span>
                      )}
                      {textOf(arg.description) ? (
                        <p className="text-slate-600">{textOf(arg.description)}</p>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
