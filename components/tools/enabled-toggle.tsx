"use client";

import type { GovernedToolDto } from "./tool-queries";
import { useUpdateTool } from "./use-update-tool";

/** A switch: a disabled tool is hidden from agents and refused on every path, the playground included. */
export function EnabledToggle({ tool, canManage }: { tool: GovernedToolDto; canManage: boolean }) {
  const update = useUpdateTool(tool);
  // While saving, the switch already shows where it is going.
  const isOn = update.isPending ? (update.variables?.enabled ?? tool.enabled) : tool.enabled;
  return (
    <div>
      <span className="block text-xs font-medium text-slate-500">Enabled</span>
      <button
        type="button"
        role="switch"
        aria-checked={isOn}
        aria-label={`Enabled: ${tool.gatewayName}`}
        disabled={!canManage || update.isPending}
        title={canManage ? undefined : "Only admins enable or disable tools."}
        onClick={() => update.mutate({ enabled: !isOn })}
        className={`relative mt-1.5 inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors disabled:cursor-not-allowed disabled:opacity-60 ${
          isOn ? "bg-indigo-600" : "bg-slate-300"
        }`}
      >
        <span
          aria-hidden
          className={`inline-block h-4 w-4 rounded-full bg-white shadow transition-transform ${
            isOn ? "translate-x-4.5" : "translate-x-0.5"
          }`}
        />
      </button>
      {update.error ? (
        <p role="alert" className="mt-1 max-w-40 text-xs text-red-700">
          {update.error.message}
        </p>
      ) : null}
    </div>
  );
}
