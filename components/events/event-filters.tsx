"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { serversListQuery } from "@/components/servers/server-queries";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { EVENT_TYPES } from "@/lib/events/event-names";
import type { EventFilters as Filters } from "./event-queries";

const prefixes = [
  ["call.", "Calls (call.*)"],
  ["server.", "Servers (server.*)"],
  ["catalog.", "Catalog (catalog.*)"],
] as const;

/** Type (a prefix or one type), server and call; the stream and the history use the same ones. */
export function EventFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange: (patch: Filters) => void;
}) {
  const { data: servers } = useQuery({ ...serversListQuery(), refetchInterval: false });
  // The call id is applied when complete (Enter or leaving the field), not on every keystroke.
  const [callDraft, setCallDraft] = useState(filters.call ?? "");
  const isFiltered = Object.values(filters).some(Boolean);
  const label = "block text-xs font-medium text-slate-600";

  return (
    <fieldset className="flex flex-wrap items-end gap-3">
      <legend className="sr-only">Filter events</legend>
      <label className={label}>
        Type
        <select
          value={filters.type ?? ""}
          onChange={(e) => onChange({ type: e.target.value })}
          className={`${inputClass} mt-1 min-w-44`}
        >
          <option value="">All types</option>
          {prefixes.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
          <optgroup label="One type">
            {EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      <label className={label}>
        Server
        <select
          value={filters.server ?? ""}
          onChange={(e) => onChange({ server: e.target.value })}
          className={`${inputClass} mt-1 min-w-40`}
        >
          <option value="">Any server</option>
          {(servers ?? []).map((s) => (
            <option key={s.id} value={s.name}>
              {s.displayName ?? s.name}
            </option>
          ))}
          {filters.server && !servers?.some((s) => s.name === filters.server) ? (
            <option value={filters.server}>{filters.server}</option>
          ) : null}
        </select>
      </label>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onChange({ call: callDraft.trim() });
        }}
      >
        <label className={label}>
          Call id
          <input
            type="search"
            value={callDraft}
            onChange={(e) => setCallDraft(e.target.value)}
            onBlur={() => onChange({ call: callDraft.trim() })}
            placeholder="Any call"
            className={`${inputClass} mt-1 w-72 font-mono`}
          />
        </label>
      </form>
      {isFiltered ? (
        <Button
          variant="ghost"
          onClick={() => {
            setCallDraft("");
            onChange({ type: "", server: "", call: "" });
          }}
        >
          Clear filters
        </Button>
      ) : null}
    </fieldset>
  );
}
