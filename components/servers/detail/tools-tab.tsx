"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { inputClass } from "@/components/ui/field";
import { QueryFallback } from "@/components/ui/query-fallback";
import { serverToolsQuery } from "../server-queries";
import { useServerPoll } from "../use-live-servers";
import { ToolItem } from "./tool-item";

export function ToolsTab({ name }: { name: string }) {
  const { data: tools, error } = useQuery({ ...serverToolsQuery(name), refetchInterval: useServerPoll() });
  const [filter, setFilter] = useState("");

  if (!tools) return <QueryFallback error={error} what="tools" />;
  if (tools.length === 0) {
    return (
      <EmptyState title="No tools discovered">
        Switchboard lists tools once it connects and the server answers tools/list. Servers that don't declare
        the tools capability have none.
      </EmptyState>
    );
  }

  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? tools.filter((tool) =>
        [tool.gatewayName, tool.title, tool.description].some((text) => text?.toLowerCase().includes(needle)),
      )
    : tools;

  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-2xl text-xs text-slate-500">
          Badges marked <span className="font-semibold uppercase">hint</span> are the server's own
          annotations: untrusted. The effect is what Switchboard enforces, set by an admin. Expand a tool for
          its schema.
        </p>
        {tools.length > 5 ? (
          <input
            type="search"
            aria-label="Filter tools"
            placeholder="Filter tools"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            className={`${inputClass} max-w-xs`}
          />
        ) : null}
      </div>
      {shown.length === 0 ? (
        <p className="py-6 text-sm text-slate-500">No tool matches “{filter}”.</p>
      ) : (
        <ul className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
          {shown.map((tool) => (
            <ToolItem key={tool.id} tool={tool} />
          ))}
        </ul>
      )}
    </div>
  );
}
