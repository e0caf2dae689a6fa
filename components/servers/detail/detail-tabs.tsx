"use client";

import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, type ReactNode, useRef } from "react";
import { serverToolsQuery } from "../server-queries";
import { useServerPoll } from "../use-live-servers";
import { DiagnosticsTab } from "./diagnostics-tab";
import { HealthTab } from "./health-tab";
import { PromptsTab } from "./prompts-tab";
import { ResourcesTab } from "./resources-tab";
import { SnapshotsTab } from "./snapshots-tab";
import { type DetailTab, detailTabs } from "./tab-param";
import { ToolsTab } from "./tools-tab";

const labels: Record<DetailTab, string> = {
  tools: "Tools",
  resources: "Resources",
  prompts: "Prompts",
  health: "Health",
  diagnostics: "Diagnostics",
  snapshots: "Snapshots",
};

const panels: Record<DetailTab, (props: { name: string }) => ReactNode> = {
  tools: ToolsTab,
  resources: ResourcesTab,
  prompts: PromptsTab,
  health: HealthTab,
  diagnostics: DiagnosticsTab,
  snapshots: SnapshotsTab,
};

/** WAI-ARIA tabs with automatic activation: arrows, Home and End move between them. */
export function DetailTabs({
  name,
  tab,
  onSelect,
}: {
  name: string;
  tab: DetailTab;
  onSelect: (tab: DetailTab) => void;
}) {
  const { data: tools } = useQuery({ ...serverToolsQuery(name), refetchInterval: useServerPoll() });
  const tabRefs = useRef(new Map<DetailTab, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent) => {
    const index = detailTabs.indexOf(tab);
    const last = detailTabs.length - 1;
    const targets: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = detailTabs[targets[event.key] ?? -1];
    if (!next) return;
    event.preventDefault();
    onSelect(next);
    tabRefs.current.get(next)?.focus();
  };

  const Panel = panels[tab];
  return (
    <section>
      <div
        role="tablist"
        aria-label="Server details"
        onKeyDown={onKeyDown}
        className="relative flex gap-1 overflow-x-auto border-b border-slate-200"
      >
        {detailTabs.map((id) => {
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
              id={`server-tab-${id}`}
              aria-selected={isSelected}
              aria-controls={isSelected ? `server-panel-${id}` : undefined}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(id)}
              className={`-mb-px flex items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                isSelected
                  ? "border-indigo-600 text-indigo-700"
                  : "border-transparent text-slate-600 hover:text-slate-900"
              }`}
            >
              {labels[id]}
              {id === "tools" && tools ? (
                <span className="rounded-full bg-slate-100 px-1.5 text-xs font-medium text-slate-600">
                  {tools.length}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`server-panel-${tab}`}
        aria-labelledby={`server-tab-${tab}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tabs pattern makes the panel focusable
        tabIndex={0}
        className="pt-6 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
      >
        <Panel name={name} />
      </div>
    </section>
  );
}
