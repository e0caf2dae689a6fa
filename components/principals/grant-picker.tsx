"use client";

import { type ReactNode, useId, useState } from "react";
import type { GovernedToolDto } from "@/components/tools/tool-queries";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { EffectBadge } from "@/components/ui/tool-badges";
import { findGrant, wholeServerPattern } from "@/lib/policy/grant-patterns";
import { serverTree, togglePick } from "./grant-patterns";

/**
 * Grants by picking instead of typing: servers and their tools as checkboxes (Tab and Space), a
 * filter box above them. A whole server gives `server__*`, a tool `server__tool`; what will be
 * added, and how many tools it matches, is counted by the rule the gateway enforces.
 */
export function GrantPicker(props: {
  tools: GovernedToolDto[];
  granted: readonly string[];
  isBusy: boolean;
  onAdd: (patterns: string[], done: () => void) => void;
}) {
  const [filter, setFilter] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const filterId = useId();
  const q = filter.trim().toLowerCase();
  const tree = serverTree(props.tools)
    .map((branch) => ({
      ...branch,
      shown: branch.serverName.includes(q)
        ? branch.tools
        : branch.tools.filter((tool) =>
            [tool.gatewayName, tool.title ?? ""].some((text) => text.toLowerCase().includes(q)),
          ),
    }))
    .filter((branch) => branch.shown.length > 0);
  const matched = props.tools.filter((tool) => findGrant(picked, tool.gatewayName));

  return (
    <section
      aria-labelledby={`${filterId}-title`}
      className="mb-4 rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2.5">
        <h3 id={`${filterId}-title`} className="text-sm font-semibold text-slate-900">
          Pick servers and tools
        </h3>
        <input
          id={filterId}
          type="search"
          aria-label="Filter servers and tools"
          placeholder="Filter servers and tools"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          className={`${inputClass} max-w-60`}
        />
      </div>
      {tree.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-slate-500">
          {props.tools.length === 0
            ? "No tools discovered yet: once a server connects, its tools appear here."
            : `No server or tool matches "${filter.trim()}".`}
        </p>
      ) : (
        <ul
          aria-label="Servers and their tools"
          className="max-h-96 divide-y divide-slate-100 overflow-y-auto"
        >
          {tree.map((branch) => (
            <ServerBranchItem
              key={branch.serverName}
              serverName={branch.serverName}
              tools={branch.shown}
              toolCount={branch.tools.length}
              granted={props.granted}
              picked={picked}
              onToggle={(pattern) => setPicked((current) => togglePick(current, pattern, branch.serverName))}
            />
          ))}
        </ul>
      )}
      <div
        data-testid="picker-result"
        className="flex flex-wrap items-center gap-2 border-t border-slate-200 bg-slate-50 px-4 py-2.5 text-sm"
      >
        {picked.length === 0 ? (
          <span className="text-slate-500">Pick a server or tools to see the patterns they give.</span>
        ) : (
          <>
            <span className="text-slate-600">Will add</span>
            {picked.map((pattern) => (
              <code
                key={pattern}
                data-testid="picked-pattern"
                className="rounded bg-white px-1.5 py-0.5 font-mono text-xs text-slate-900 ring-1 ring-slate-200"
              >
                {pattern}
              </code>
            ))}
            <span role="status" data-testid="picker-count" className="text-slate-600">
              matching {matched.length} {matched.length === 1 ? "tool" : "tools"} now
            </span>
          </>
        )}
        <Button
          className="ml-auto"
          disabled={picked.length === 0 || props.isBusy}
          onClick={() => props.onAdd(picked, () => setPicked([]))}
        >
          {picked.length > 1 ? `Add ${picked.length} grants` : "Add picked grant"}
        </Button>
      </div>
    </section>
  );
}

function ServerBranchItem(props: {
  serverName: string;
  tools: GovernedToolDto[];
  toolCount: number;
  granted: readonly string[];
  picked: string[];
  onToggle: (pattern: string) => void;
}) {
  const serverPattern = wholeServerPattern(props.serverName);
  const isServerGranted = findGrant(props.granted, `${props.serverName}__*`) !== undefined;
  const isServerPicked = props.picked.includes(serverPattern);
  return (
    <li className="px-4 py-2">
      <PickBox
        pattern={serverPattern}
        isChecked={isServerGranted || isServerPicked}
        isGranted={isServerGranted}
        onToggle={props.onToggle}
      >
        <span className="font-medium text-slate-900">{props.serverName}</span>
        <span className="text-xs text-slate-500">
          whole server · {props.toolCount} {props.toolCount === 1 ? "tool" : "tools"}, its resources and
          prompts
        </span>
      </PickBox>
      <ul aria-label={`Tools of ${props.serverName}`} className="ml-6 mt-1 space-y-0.5">
        {props.tools.map((tool) => {
          const isGranted = findGrant(props.granted, tool.gatewayName) !== undefined;
          return (
            <li key={tool.id}>
              <PickBox
                pattern={tool.gatewayName}
                isChecked={isGranted || isServerPicked || props.picked.includes(tool.gatewayName)}
                isGranted={isGranted}
                // Covered by the whole server's pattern already: nothing to add one by one.
                isCovered={isServerPicked}
                onToggle={props.onToggle}
              >
                <code className="font-mono text-xs text-slate-800">{tool.name}</code>
                {tool.title ? <span className="text-xs text-slate-500">{tool.title}</span> : null}
                <EffectBadge effect={tool.effect} />
              </PickBox>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

function PickBox(props: {
  pattern: string;
  isChecked: boolean;
  isGranted: boolean;
  isCovered?: boolean;
  onToggle: (pattern: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  const isLocked = props.isGranted || !!props.isCovered;
  return (
    <div className="flex flex-wrap items-center gap-2 py-0.5">
      <input
        id={id}
        type="checkbox"
        checked={props.isChecked}
        disabled={isLocked}
        onChange={() => props.onToggle(props.pattern)}
        aria-describedby={`${id}-pattern`}
        className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
      />
      <label htmlFor={id} className="flex flex-wrap items-center gap-2">
        {props.children}
      </label>
      <code id={`${id}-pattern`} className="font-mono text-[11px] text-slate-500">
        {props.pattern}
      </code>
      {props.isGranted ? <span className="text-xs text-emerald-700">granted</span> : null}
    </div>
  );
}
