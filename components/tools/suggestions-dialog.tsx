"use client";

import type { Ref } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { GovernedToolDto } from "./tool-queries";

/**
 * What "Apply suggestions" would do, tool by tool, before anything is saved: the suggestions come
 * from each server's own annotations (untrusted), so a person reads them and confirms.
 */
export function SuggestionsDialog({
  ref,
  tools,
  isPending,
  error,
  onConfirm,
}: {
  ref: Ref<HTMLDialogElement>;
  tools: GovernedToolDto[];
  isPending: boolean;
  error: string | null;
  onConfirm: () => void;
}) {
  const changing = tools.filter((tool) => tool.effect !== tool.suggestedEffect);
  return (
    <dialog
      ref={ref}
      aria-labelledby="suggestions-title"
      className="m-auto w-full max-w-xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-4 p-6">
        <h2 id="suggestions-title" className="text-lg font-semibold text-slate-900">
          Apply the servers' suggestions?
        </h2>
        <p className="text-sm text-slate-600">
          Each effect below is what the tool's server claims in its annotations. A server can claim anything:
          check each one, since Switchboard enforces what you confirm here.
        </p>
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="py-1 font-medium">Tool</th>
              <th className="py-1 font-medium">Now</th>
              <th className="py-1 font-medium">Suggested</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {tools.map((tool) => (
              <tr key={tool.id} data-testid={`suggestion-${tool.gatewayName}`}>
                <td className="py-1.5 pr-2 font-mono text-xs break-all">{tool.gatewayName}</td>
                <td className="py-1.5 pr-2 text-xs text-slate-600">{tool.effect ?? "unclassified"}</td>
                <td className="py-1.5">
                  <Badge tone={tool.suggestedEffect === "read" ? "green" : "amber"}>
                    {tool.suggestedEffect}
                  </Badge>
                  {tool.effect === tool.suggestedEffect ? (
                    <span className="ml-1 text-xs text-slate-400">no change</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={(event) => event.currentTarget.closest("dialog")?.close()}>
            Cancel
          </Button>
          <Button onClick={onConfirm} disabled={isPending || changing.length === 0}>
            {isPending
              ? "Applying…"
              : changing.length === 0
                ? "Nothing to change"
                : `Apply ${changing.length} suggestion${changing.length === 1 ? "" : "s"}`}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
