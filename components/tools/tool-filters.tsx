"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { serversListQuery } from "@/components/servers/server-queries";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { FilterSelect } from "@/components/ui/filter-select";
import { effectOrder } from "./effects";
import type { ToolFilters as Filters } from "./tool-queries";

/** Typing settles this long before the search goes to the server. */
const SEARCH_DELAY_MS = 250;

const effectOptions: [string, string][] = [
  ["unclassified", "Unclassified (needs review)"],
  ...effectOrder.map((effect): [string, string] => [effect, effect]),
];
const statusOptions: [string, string][] = [
  ["enabled", "Enabled"],
  ["disabled", "Disabled"],
  ["quarantined", "Quarantined"],
];
export const noFilters: Filters = { q: "", server: "", effect: "", status: "" };

/** Search (name, description, server), one server, one effect, one state: all applied by the server. */
export function ToolFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange: (patch: Partial<Filters>) => void;
}) {
  // Server names change rarely; they are not polled here.
  const { data: servers } = useQuery({ ...serversListQuery(), refetchInterval: false });
  const isFiltered = Object.values(filters).some(Boolean);

  return (
    <fieldset className="mb-4 flex flex-wrap items-end gap-3">
      <legend className="sr-only">Filter tools</legend>
      <SearchBox value={filters.q} onChange={(q) => onChange({ q })} />
      <FilterSelect
        label="Server"
        value={filters.server}
        onChange={(server) => onChange({ server })}
        options={(servers ?? []).map((s) => [s.name, s.name])}
        className="min-w-40 max-w-56"
        anyLabel="All servers"
      />
      <FilterSelect
        label="Effect"
        value={filters.effect}
        onChange={(effect) => onChange({ effect })}
        options={effectOptions}
        className="min-w-40 max-w-56"
        anyLabel="Any effect"
      />
      <FilterSelect
        label="State"
        value={filters.status}
        onChange={(status) => onChange({ status })}
        options={statusOptions}
        className="min-w-40 max-w-56"
        anyLabel="Any state"
      />
      {isFiltered ? (
        <Button variant="ghost" onClick={() => onChange(noFilters)}>
          Clear filters
        </Button>
      ) : null}
    </fieldset>
  );
}

/** Applies what was typed once typing pauses; follows the URL when it changes elsewhere (Back, Clear). */
function SearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  const [applied, setApplied] = useState(value);
  if (value !== applied) {
    setApplied(value);
    setText(value);
  }
  const change = useRef(onChange);
  change.current = onChange;
  useEffect(() => {
    if (text === applied) return;
    const timer = setTimeout(() => change.current(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, applied]);

  return (
    <label className="block min-w-64 flex-1 text-xs font-medium text-slate-600 sm:max-w-sm">
      Search
      <input
        type="search"
        aria-label="Search tools"
        placeholder="Name, description or server"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") change.current(text);
        }}
        className={`${inputClass} mt-1`}
      />
    </label>
  );
}
