import { inputClass } from "@/components/ui/field";

export type ToolFilter = { q: string; server: string; isReviewOnly: boolean };

/** Search (name, description, server), one server or all, and "only what needs a decision". */
export function ToolFilters({
  filter,
  servers,
  onChange,
}: {
  filter: ToolFilter;
  servers: string[];
  onChange: (filter: ToolFilter) => void;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-center gap-3">
      <input
        type="search"
        aria-label="Search tools"
        placeholder="Search by name, description or server"
        value={filter.q}
        onChange={(event) => onChange({ ...filter, q: event.target.value })}
        className={`${inputClass} max-w-sm`}
      />
      <select
        aria-label="Server"
        value={filter.server}
        onChange={(event) => onChange({ ...filter, server: event.target.value })}
        className={`${inputClass} max-w-56`}
      >
        <option value="">All servers</option>
        {servers.map((server) => (
          <option key={server} value={server}>
            {server}
          </option>
        ))}
      </select>
      <label className="flex items-center gap-1.5 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={filter.isReviewOnly}
          onChange={(event) => onChange({ ...filter, isReviewOnly: event.target.checked })}
        />
        Only unclassified or needing review
      </label>
    </div>
  );
}
