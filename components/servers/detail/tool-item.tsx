"use client";

import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import { ConflictBadge, EffectBadge, HintBadges } from "@/components/ui/tool-badges";
import type { ToolDto } from "@/lib/catalog/types";
import { SchemaTable } from "./schema-table";

export function ToolItem({ tool }: { tool: ToolDto }) {
  const [isOpen, setOpen] = useState(false);
  const panelId = useId();
  const isRemoved = tool.removedAt !== null;
  const isShortened = !tool.gatewayName.endsWith(`__${tool.name}`);
  const { inputSchema, outputSchema, annotations } = tool.definition;

  return (
    <li data-testid={`tool-${tool.name}`} className={isRemoved ? "bg-slate-50 text-slate-400" : ""}>
      <div className="flex items-start gap-3 px-4 py-3">
        <div className={`min-w-0 flex-1 ${isRemoved ? "opacity-60" : ""}`}>
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              aria-expanded={isOpen}
              aria-controls={panelId}
              onClick={() => setOpen(!isOpen)}
              className="flex items-center gap-1.5 rounded text-left hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-500"
            >
              <span
                aria-hidden
                className={`text-xs text-slate-400 transition-transform ${isOpen ? "rotate-90" : ""}`}
              >
                ▶
              </span>
              <code
                className={`font-mono text-sm font-medium ${isRemoved ? "line-through" : "text-slate-900"}`}
              >
                {tool.gatewayName}
              </code>
            </button>
            {tool.title ? <span className="text-sm text-slate-700">{tool.title}</span> : null}
            <EffectBadge effect={tool.effect} />
            {tool.approvalRule !== "by-effect" ? (
              <Badge tone="blue">{tool.approvalRule === "always" ? "always approve" : "never approve"}</Badge>
            ) : null}
            {!tool.enabled ? <Badge tone="slate">disabled</Badge> : null}
            {tool.quarantine ? (
              <Badge tone="red" title="Every call is refused until an admin reviews it (Tools page)">
                quarantined
              </Badge>
            ) : null}
            {isRemoved ? (
              <Badge tone="slate">
                removed <Time iso={tool.removedAt} />
              </Badge>
            ) : null}
            <ConflictBadge conflicts={tool.conflictsWith} />
          </div>
          {isShortened ? (
            <p className="mt-0.5 text-xs text-slate-500">
              upstream name <code className="font-mono">{tool.name}</code>
            </p>
          ) : null}
          {tool.description ? (
            <p className={`mt-1 whitespace-pre-line text-sm text-slate-600 ${isOpen ? "" : "line-clamp-2"}`}>
              {tool.description}
            </p>
          ) : null}
          {tool.conflictsWith.length > 0 ? (
            <p className="mt-1 text-xs text-red-700">
              Gateway name also used by{" "}
              {tool.conflictsWith.map((c) => `${c.serverName}/${c.toolName}`).join(", ")}: a conflict to
              resolve, for example by renaming one of the servers.
            </p>
          ) : null}
          <div className="mt-2">
            <HintBadges annotations={annotations} />
          </div>
        </div>
      </div>
      {isOpen ? (
        <div id={panelId} className="space-y-5 border-t border-slate-100 bg-slate-50/50 px-4 py-4 sm:pl-10">
          <SchemaTable schema={inputSchema} label="Input" />
          {outputSchema !== undefined ? <SchemaTable schema={outputSchema} label="Output" /> : null}
        </div>
      ) : null}
    </li>
  );
}
