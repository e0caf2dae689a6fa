"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { TabList, tabId, tabPanelId } from "@/components/ui/tab-list";
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

/** A server's details, one tab each (components/ui/tab-list.tsx: arrows, Home and End move). */
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
  const Panel = panels[tab];
  return (
    <section>
      <TabList
        tabs={detailTabs}
        selected={tab}
        onSelect={onSelect}
        label="Server details"
        idPrefix="server"
        className="relative"
        renderLabel={(id) => (
          <>
            {labels[id]}
            {id === "tools" && tools ? (
              <span className="rounded-full bg-slate-100 px-1.5 text-xs font-medium text-slate-600">
                {tools.length}
              </span>
            ) : null}
          </>
        )}
      />
      <div
        role="tabpanel"
        id={tabPanelId("server", tab)}
        aria-labelledby={tabId("server", tab)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tabs pattern makes the panel focusable
        tabIndex={0}
        className="pt-6 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
      >
        <Panel name={name} />
      </div>
    </section>
  );
}
