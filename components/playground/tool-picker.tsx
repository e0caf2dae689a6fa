"use client";

import { type KeyboardEvent, useId, useState } from "react";
import type { GovernedToolDto } from "@/components/tools/tool-queries";
import { inputClass } from "@/components/ui/field";

const MAX_OPTIONS = 50;

/** A searchable select (ARIA combobox): type to filter by name, title, description or server. */
export function ToolPicker(props: {
  tools: GovernedToolDto[];
  selected: GovernedToolDto | undefined;
  onSelect: (tool: GovernedToolDto) => void;
}) {
  const [query, setQuery] = useState("");
  const [isOpen, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const id = useId();
  const needle = query.trim().toLowerCase();
  const matches = props.tools
    .filter((tool) =>
      [tool.gatewayName, tool.title ?? "", tool.description ?? "", tool.serverName].some((text) =>
        text.toLowerCase().includes(needle),
      ),
    )
    .slice(0, MAX_OPTIONS);

  const choose = (tool: GovernedToolDto | undefined) => {
    if (!tool) return;
    props.onSelect(tool);
    setQuery("");
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (matches.length === 0 ? 0 : (i + move + matches.length) % matches.length));
    } else if (event.key === "Enter" && isOpen) {
      event.preventDefault();
      choose(matches[active]);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  };

  return (
    <div className="relative">
      <label htmlFor={`${id}-input`} className="block text-sm font-medium text-slate-800">
        Tool
      </label>
      <input
        id={`${id}-input`}
        role="combobox"
        aria-expanded={isOpen}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={isOpen && matches[active] ? `${id}-option-${active}` : undefined}
        autoComplete="off"
        placeholder={props.selected ? props.selected.gatewayName : "Search enabled tools…"}
        value={isOpen ? query : (props.selected?.gatewayName ?? query)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        className={`${inputClass} mt-1 font-mono`}
      />
      {isOpen ? (
        <div
          id={`${id}-list`}
          role="listbox"
          aria-label="Tools"
          className="absolute z-10 mt-1 max-h-80 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {matches.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-500">No enabled tool matches “{query}”.</p>
          ) : (
            matches.map((tool, index) => (
              // The keyboard drives the list from the input (aria-activedescendant), so options take no focus.
              // biome-ignore lint/a11y/useKeyWithClickEvents: see above
              <div
                key={tool.id}
                id={`${id}-option-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                // Keep focus in the input, so the click lands before the blur closes the list.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(tool)}
                onMouseEnter={() => setActive(index)}
                className={`cursor-pointer px-3 py-2 ${index === active ? "bg-indigo-50" : ""}`}
              >
                <span className="block font-mono text-sm text-slate-900">{tool.gatewayName}</span>
                {tool.title || tool.description ? (
                  <span className="block truncate text-xs text-slate-500">
                    {tool.title ?? tool.description}
                  </span>
                ) : null}
              </div>
            ))
          )}
        </div>
      ) : null}
    </div>
  );
}
