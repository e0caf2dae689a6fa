"use client";

import type { GovernedToolDto } from "./tool-queries";

/** "Select all on this server" for the tools shown: checked, unchecked, or mixed (some selected). */
export function SelectAllBox({
  server,
  tools,
  selected,
  onChange,
}: {
  server: string;
  tools: GovernedToolDto[];
  selected: ReadonlySet<string>;
  onChange: (ids: readonly string[], isSelected: boolean) => void;
}) {
  const count = tools.filter((tool) => selected.has(tool.id)).length;
  const isAll = count === tools.length && count > 0;
  return (
    <input
      type="checkbox"
      checked={isAll}
      ref={(box) => {
        if (box) box.indeterminate = count > 0 && !isAll;
      }}
      onChange={() =>
        onChange(
          tools.map((tool) => tool.id),
          !isAll,
        )
      }
      aria-label={`Select all tools on ${server}`}
      className="size-4 rounded border-slate-300 text-indigo-600"
    />
  );
}
