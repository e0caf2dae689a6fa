"use client";

import { type KeyboardEvent, type ReactNode, useRef } from "react";

/** The ids a tab and its panel share, so `aria-controls` and `aria-labelledby` point at each other. */
export const tabId = (prefix: string, tab: string) => `${prefix}-tab-${tab}`;
export const tabPanelId = (prefix: string, tab: string) => `${prefix}-panel-${tab}`;

/**
 * A WAI-ARIA tab list with automatic activation: arrows, Home and End move between the tabs (a
 * roving tabindex keeps one Tab stop). The caller renders the panel with `tabPanelId`.
 */
export function TabList<Tab extends string>({
  tabs,
  selected,
  onSelect,
  label,
  idPrefix,
  renderLabel,
  className = "",
}: {
  tabs: readonly Tab[];
  selected: Tab;
  onSelect: (tab: Tab) => void;
  label: string;
  idPrefix: string;
  renderLabel: (tab: Tab) => ReactNode;
  className?: string;
}) {
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.indexOf(selected);
    const last = tabs.length - 1;
    const targets: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = tabs[targets[event.key] ?? -1];
    if (!next) return;
    event.preventDefault();
    onSelect(next);
    tabRefs.current.get(next)?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className={`flex gap-1 overflow-x-auto border-b border-slate-200 ${className}`}
    >
      {tabs.map((id) => {
        const isSelected = id === selected;
        return (
          <button
            key={id}
            ref={(element) => {
              if (element) tabRefs.current.set(id, element);
              else tabRefs.current.delete(id);
            }}
            type="button"
            role="tab"
            id={tabId(idPrefix, id)}
            aria-selected={isSelected}
            aria-controls={isSelected ? tabPanelId(idPrefix, id) : undefined}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onSelect(id)}
            className={`-mb-px flex items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
              isSelected
                ? "border-indigo-600 text-indigo-700"
                : "border-transparent text-slate-600 hover:text-slate-900"
            }`}
          >
            {renderLabel(id)}
          </button>
        );
      })}
    </div>
  );
}
