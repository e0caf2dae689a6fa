"use client";

import { useQuery } from "@tanstack/react-query";
import { serversListQuery } from "@/components/servers/server-queries";
import { fetchAllTools } from "@/components/tools/tool-queries";
import { Button } from "@/components/ui/button";
import { FilterSelect } from "@/components/ui/filter-select";
import type { CallKind, CallOutcome, CallSummary } from "@/lib/calls/types";
import { fetchJson } from "@/lib/client/fetch-json";
import type { PrincipalDto } from "@/lib/principals/types";
import { callKinds, callOutcomes } from "./call-format";
import type { CallFilters as Filters } from "./call-queries";

// Option lists change rarely; they are not polled here.
const tools = { queryKey: ["tools", "filter-options"], queryFn: () => fetchAllTools() };
const principals = {
  queryKey: ["principals", "filter-options"],
  queryFn: () => fetchJson<{ principals: PrincipalDto[] }>("/api/v1/principals").then((r) => r.principals),
};

/**
 * Kind, status, server, tool and requester, each one value (the API matches exactly). Requesters are
 * the workspace's principals plus anyone seen in the calls shown: operators have no list of their own.
 */
export function CallFilters({
  filters,
  onChange,
  seen,
}: {
  filters: Filters;
  onChange: (patch: Filters) => void;
  seen: CallSummary[];
}) {
  const { data: servers } = useQuery({ ...serversListQuery(), refetchInterval: false });
  const { data: toolList } = useQuery(tools);
  const { data: principalList } = useQuery(principals);

  const requesters = new Map<string, string>();
  for (const p of principalList ?? []) requesters.set(p.id, `${p.name} (agent)`);
  for (const c of seen)
    requesters.set(
      c.requester.id,
      `${c.requester.name} (${c.requester.kind === "principal" ? "agent" : "operator"})`,
    );
  const toolNames = [...new Set((toolList ?? []).map((t) => t.gatewayName))].sort();
  const isFiltered = Object.values(filters).some(Boolean);

  return (
    <fieldset className="mb-4 flex flex-wrap items-end gap-3">
      <legend className="sr-only">Filter calls</legend>
      <FilterSelect
        label="Kind"
        value={filters.kind}
        onChange={(kind) => onChange({ kind })}
        options={(Object.keys(callKinds) as CallKind[]).map((k) => [k, callKinds[k].label])}
        anyLabel="Any kind"
      />
      <FilterSelect
        label="Status"
        value={filters.status}
        onChange={(status) => onChange({ status })}
        options={(Object.keys(callOutcomes) as CallOutcome[]).map((s) => [s, callOutcomes[s].label])}
        anyLabel="Any status"
      />
      <FilterSelect
        label="Server"
        value={filters.server}
        onChange={(server) => onChange({ server })}
        options={(servers ?? []).map((s) => [s.name, s.displayName ?? s.name])}
        anyLabel="Any server"
      />
      <FilterSelect
        label="Tool"
        value={filters.tool}
        onChange={(tool) => onChange({ tool })}
        options={toolNames.map((name) => [name, name])}
        anyLabel="Any tool"
      />
      <FilterSelect
        label="Requester"
        value={filters.requester}
        onChange={(requester) => onChange({ requester })}
        options={[...requesters].sort((a, b) => a[1].localeCompare(b[1]))}
        anyLabel="Anyone"
      />
      {isFiltered ? (
        <Button
          variant="ghost"
          onClick={() => onChange({ kind: "", status: "", server: "", tool: "", requester: "" })}
        >
          Clear filters
        </Button>
      ) : null}
    </fieldset>
  );
}
