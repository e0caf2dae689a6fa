"use client";

import { type KeyboardEvent, useId, useRef, useState } from "react";
import type { GovernedToolDto } from "@/components/tools/tool-queries";
import { Command, CommandEmpty, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { inputClass } from "@/components/ui/field";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";

// Bounds the list a workspace with thousands of tools renders; typing narrows it.
const MAX_OPTIONS = 50;

function matchTools(tools: GovernedToolDto[], query: string): GovernedToolDto[] {
  const needle = query.trim().toLowerCase();
  return tools.filter((tool) =>
    [tool.gatewayName, tool.title ?? "", tool.description ?? "", tool.serverName].some((text) =>
      text.toLowerCase().includes(needle),
    ),
  );
}

/**
 * Picks the tool to run: a select-only combobox that opens a searchable list (cmdk in a Radix
 * popover). Typing filters by name, title, description or server; the arrows move through the
 * list, keeping the active tool in view; Enter or a click picks it; Escape closes.
 */
export function ToolPicker(props: {
  tools: GovernedToolDto[];
  selected: GovernedToolDto | undefined;
  onSelect: (tool: GovernedToolDto) => void;
}) {
  const [isOpen, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const id = useId();
  const searchInput = useRef<HTMLInputElement>(null);
  const matches = matchTools(props.tools, query);
  const shown = matches.slice(0, MAX_OPTIONS);

  const open = (initialQuery = "") => {
    setQuery(initialQuery);
    setOpen(true);
  };
  const choose = (tool: GovernedToolDto) => {
    props.onSelect(tool);
    setOpen(false);
  };
  // Like a native select: the arrows open it, and typing on it starts a search.
  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      open();
    } else if (
      event.key.length === 1 &&
      event.key !== " " &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey
    ) {
      event.preventDefault();
      // Keys typed before the focus has moved into the opening list still belong to the search.
      if (isOpen) setQuery((current) => current + event.key);
      else open(event.key);
    }
  };

  return (
    <div>
      <label htmlFor={`${id}-trigger`} className="block text-sm font-medium text-slate-800">
        Tool
      </label>
      <Popover open={isOpen} onOpenChange={(next) => (next ? open() : setOpen(false))}>
        <PopoverTrigger
          id={`${id}-trigger`}
          // A select-only combobox whose popup is a dialog (Radix sets aria-haspopup, -expanded
          // and -controls): the search field and the list are inside it.
          role="combobox"
          onKeyDown={onTriggerKeyDown}
          className={`${inputClass} mt-1 flex items-center justify-between gap-2 text-left`}
        >
          {props.selected ? (
            <span className="truncate font-mono">{props.selected.gatewayName}</span>
          ) : (
            <span className="text-slate-500">Choose an enabled tool…</span>
          )}
          <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4 shrink-0 fill-slate-400">
            <path d="M10 3a.75.75 0 0 1 .55.24l3.25 3.5a.75.75 0 1 1-1.1 1.02L10 4.85 7.3 7.76a.75.75 0 0 1-1.1-1.02l3.25-3.5A.75.75 0 0 1 10 3Zm-3.76 9.2a.75.75 0 0 1 1.06.04L10 15.15l2.7-2.91a.75.75 0 1 1 1.1 1.02l-3.25 3.5a.75.75 0 0 1-1.1 0l-3.25-3.5a.75.75 0 0 1 .04-1.06Z" />
          </svg>
        </PopoverTrigger>
        <PopoverContent
          aria-label="Choose a tool"
          // Never taller than the room the window leaves it: the list scrolls instead.
          // Radix would focus the search field with its text selected, so a second key typed on the
          // picker would replace the first: the caret goes to the end instead.
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            const input = searchInput.current;
            input?.focus();
            input?.setSelectionRange(input.value.length, input.value.length);
          }}
          className="flex max-h-[var(--radix-popover-content-available-height)] w-[var(--radix-popover-trigger-width)] min-w-[20rem] flex-col"
        >
          <Command label="Search enabled tools" shouldFilter={false} loop defaultValue={props.selected?.id}>
            <CommandInput
              ref={searchInput}
              value={query}
              onValueChange={setQuery}
              placeholder="Search by name, title, description or server…"
            />
            <CommandList label="Enabled tools">
              <CommandEmpty>No enabled tool matches “{query}”.</CommandEmpty>
              {shown.map((tool) => (
                <CommandItem key={tool.id} value={tool.id} onSelect={() => choose(tool)}>
                  <span className="block font-mono text-sm text-slate-900">{tool.gatewayName}</span>
                  {tool.title || tool.description ? (
                    <span className="block truncate text-xs text-slate-500">
                      {tool.title ?? tool.description}
                    </span>
                  ) : null}
                </CommandItem>
              ))}
            </CommandList>
            {matches.length > shown.length ? (
              <p className="border-t border-slate-100 px-3 py-1.5 text-xs text-slate-500">
                {shown.length} of {matches.length} shown: type to narrow the list.
              </p>
            ) : null}
          </Command>
        </PopoverContent>
      </Popover>
    </div>
  );
}
