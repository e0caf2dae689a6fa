"use client";

import { parseAsStringLiteral, useQueryState } from "nuqs";
import { type KeyboardEvent, useRef } from "react";
import { PromptsPanel } from "./inspect/prompts-panel";
import { ResourcesPanel } from "./inspect/resources-panel";
import { Playground } from "./playground";

const tabs = ["tools", "resources", "prompts"] as const;
type Tab = (typeof tabs)[number];
const labels: Record<Tab, string> = { tools: "Tools", resources: "Resources", prompts: "Prompts" };
// `?tab=`: a link or a reload opens the same tab; the first one leaves the URL alone.
const tabParam = parseAsStringLiteral(tabs).withDefault("tools");

/**
 * The Playground's three ways to debug a server, as Inspector has them: call a tool, read a
 * resource, get a prompt — each as the signed-in operator through the governed path.
 * WAI-ARIA tabs with automatic activation: arrows, Home and End move between them.
 */
export function PlaygroundTabs({ canRun }: { canRun: boolean }) {
  const [tab, setTab] = useQueryState("tab", tabParam);
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.indexOf(tab);
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
    void setTab(next);
    tabRefs.current.get(next)?.focus();
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label="What to try"
        onKeyDown={onKeyDown}
        className="mb-5 flex gap-1 overflow-x-auto border-b border-slate-200"
      >
        {tabs.map((id) => {
          const isSelected = id === tab;
          return (
            <button
              key={id}
              ref={(element) => {
                if (element) tabRefs.current.set(id, element);
                else tabRefs.current.delete(id);
              }}
              type="button"
              role="tab"
              id={`playground-tab-${id}`}
              aria-selected={isSelected}
              aria-controls={isSelected ? `playground-panel-${id}` : undefined}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => void setTab(id)}
              className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                isSelected
                  ? "border-indigo-600 text-indigo-700"
                  : "border-transparent text-slate-600 hover:text-slate-900"
              }`}
            >
              {labels[id]}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`playground-panel-${tab}`} aria-labelledby={`playground-tab-${tab}`}>
        {tab === "tools" ? <Playground canRun={canRun} /> : null}
        {tab === "resources" ? <ResourcesPanel canRun={canRun} /> : null}
        {tab === "prompts" ? <PromptsPanel canRun={canRun} /> : null}
      </div>
    </div>
  );
}
