"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { SchemaTable } from "@/components/servers/detail/schema-table";
import { Badge } from "@/components/ui/badge";
import { ConflictBadge } from "@/components/ui/tool-badges";
import { ApprovalRuleSelect } from "./approval-rule-select";
import { EffectEditor } from "./effect-editor";
import { UNCLASSIFIED_AS } from "./effects";
import { EnabledToggle } from "./enabled-toggle";
import { QuarantineControl } from "./quarantine-control";
import { ToolHints } from "./tool-hints";
import type { GovernedToolDto } from "./tool-queries";

type Props = {
  tool: GovernedToolDto;
  isDrifted: boolean;
  canManage: boolean;
  /** for bulk changes; admins only */
  selection?: { isSelected: boolean; onToggle: () => void };
};

/** One tool: what it is (all of it text from the server), and an admin's decisions about it. */
export function ToolRow({ tool, isDrifted, canManage, selection }: Props) {
  const [isOpen, setOpen] = useState(false);
  const panelId = useId();

  return (
    <li data-testid={`tool-${tool.gatewayName}`} className={tool.enabled ? "" : "bg-slate-50/70"}>
      <div className="flex flex-col gap-4 px-4 py-4 2xl:flex-row 2xl:items-start">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            {selection ? (
              <input
                type="checkbox"
                checked={selection.isSelected}
                onChange={selection.onToggle}
                aria-label={`Select ${tool.gatewayName}`}
                className="size-4 rounded border-slate-300 text-indigo-600"
              />
            ) : null}
            <code className="break-all font-mono text-sm font-medium text-slate-900">{tool.gatewayName}</code>
            {tool.title ? <span className="text-sm text-slate-600">{tool.title}</span> : null}
            {isDrifted ? (
              <Badge tone="amber" title="The definition changed; its effect was reset until reviewed">
                needs review
              </Badge>
            ) : null}
            {!tool.isClassified ? (
              <Badge tone="neutral" title={`Enforced as ${UNCLASSIFIED_AS} until an admin classifies it`}>
                unclassified → {UNCLASSIFIED_AS}
              </Badge>
            ) : null}
            {!tool.enabled ? <Badge tone="slate">disabled</Badge> : null}
            {tool.quarantine ? (
              <Badge tone="red" title="Every call is refused until an admin reviews it">
                quarantined
              </Badge>
            ) : null}
            <ConflictBadge conflicts={tool.conflictsWith} />
          </div>
          <p className="mt-0.5 text-xs text-slate-500">
            server <span className="font-mono">{tool.serverName}</span>
            {!tool.gatewayName.endsWith(`__${tool.name}`) ? (
              <>
                {" "}
                · upstream name <span className="font-mono">{tool.name}</span>
              </>
            ) : null}
          </p>
          {tool.description ? (
            <p className={`mt-1 whitespace-pre-line text-sm text-slate-600 ${isOpen ? "" : "line-clamp-2"}`}>
              {tool.description}
            </p>
          ) : (
            <p className="mt-1 text-sm italic text-slate-400">No description.</p>
          )}
          {isDrifted ? (
            <p className="mt-1 text-xs text-amber-800">
              Its definition changed since it was first seen, so its effect fell back to unclassified
              (enforced as {UNCLASSIFIED_AS}) until an admin reviews it.
            </p>
          ) : null}
          <div className="mt-2 flex flex-wrap gap-4 text-xs">
            <button
              type="button"
              aria-expanded={isOpen}
              aria-controls={panelId}
              onClick={() => setOpen(!isOpen)}
              className="font-medium text-indigo-700 hover:underline"
            >
              {isOpen ? "Hide input schema" : "Show input schema"}
            </button>
            {tool.enabled && tool.serverEnabled && !tool.quarantine ? (
              <Link
                href={`/playground?tool=${encodeURIComponent(tool.gatewayName)}`}
                className="font-medium text-indigo-700 hover:underline"
              >
                Try in playground
              </Link>
            ) : null}
          </div>
          <div className="mt-2">
            <QuarantineControl tool={tool} canManage={canManage} />
          </div>
        </div>
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-[17rem_14rem_11rem_auto] 2xl:shrink-0">
          <ToolHints tool={tool} />
          <EffectEditor tool={tool} canManage={canManage} />
          <ApprovalRuleSelect tool={tool} canManage={canManage} />
          <EnabledToggle tool={tool} canManage={canManage} />
        </div>
      </div>
      {isOpen ? (
        <div id={panelId} className="border-t border-slate-100 bg-slate-50/50 px-4 py-4">
          <SchemaTable schema={tool.definition.inputSchema} label="Input" />
        </div>
      ) : null}
    </li>
  );
}
