"use client";

import { parseAsStringLiteral, useQueryState } from "nuqs";
import { TabList, tabId, tabPanelId } from "@/components/ui/tab-list";
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
 */
export function PlaygroundTabs({ canRun }: { canRun: boolean }) {
  const [tab, setTab] = useQueryState("tab", tabParam);
  return (
    <div>
      <TabList
        tabs={tabs}
        selected={tab}
        onSelect={(next) => void setTab(next)}
        label="What to try"
        idPrefix="playground"
        renderLabel={(id) => labels[id]}
        className="mb-5"
      />
      <div role="tabpanel" id={tabPanelId("playground", tab)} aria-labelledby={tabId("playground", tab)}>
        {tab === "tools" ? <Playground canRun={canRun} /> : null}
        {tab === "resources" ? <ResourcesPanel canRun={canRun} /> : null}
        {tab === "prompts" ? <PromptsPanel canRun={canRun} /> : null}
      </div>
    </div>
  );
}
