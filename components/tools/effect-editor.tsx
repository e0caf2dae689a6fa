"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import type { EffectClass } from "@/lib/policy/types";
import { effectOrder, isEffectClass, isLowerEffect, UNCLASSIFIED_AS } from "./effects";
import type { GovernedToolDto } from "./tool-queries";
import { useUpdateTool } from "./use-update-tool";

/**
 * The enforced effect class. Lowering it below what the server's own hints suggest is allowed —
 * hints are untrusted either way — but it is a deliberate act, so it asks once more.
 */
export function EffectEditor({ tool, canManage }: { tool: GovernedToolDto; canManage: boolean }) {
  const update = useUpdateTool(tool);
  const [unconfirmed, setUnconfirmed] = useState<EffectClass | null>(null);
  const id = useId();

  // While saving, show the choice being saved rather than flicking back to the stored one.
  const saving =
    update.isPending && update.variables && "effect" in update.variables
      ? update.variables.effect
      : undefined;
  const shown = unconfirmed ?? (saving !== undefined ? saving : tool.effect);

  const save = (effect: EffectClass | null) => {
    setUnconfirmed(null);
    update.mutate({ effect });
  };
  const choose = (value: string) => {
    const effect = isEffectClass(value) ? value : null;
    if (effect && isLowerEffect(effect, tool.suggestedEffect)) setUnconfirmed(effect);
    else save(effect);
  };

  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-slate-500">
        Effect
      </label>
      <select
        id={id}
        value={shown ?? ""}
        disabled={!canManage || update.isPending}
        title={canManage ? undefined : "Only admins change a tool's effect."}
        onChange={(event) => choose(event.target.value)}
        className={`${inputClass} mt-1 py-1 disabled:bg-slate-50 disabled:text-slate-500`}
      >
        {/* Short enough for the column: "unclassified → external-write" was cut off mid-word.
            What unclassified means is said under the select. */}
        <option value="">unclassified</option>
        {effectOrder.map((effect) => (
          <option key={effect} value={effect}>
            {effect}
          </option>
        ))}
      </select>
      {!tool.isClassified && !unconfirmed ? (
        <p className="mt-1 text-xs text-slate-500">
          Treated as {UNCLASSIFIED_AS} until an admin classifies it.
        </p>
      ) : null}
      {unconfirmed ? (
        <LowerEffectNote
          tool={tool}
          effect={unconfirmed}
          onConfirm={() => save(unconfirmed)}
          onCancel={() => setUnconfirmed(null)}
        />
      ) : null}
      {update.isPending ? (
        <p role="status" className="mt-1 text-xs text-slate-500">
          Saving…
        </p>
      ) : null}
      {update.error ? (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {update.error.message}
        </p>
      ) : null}
    </div>
  );
}

function LowerEffectNote(props: {
  tool: GovernedToolDto;
  effect: EffectClass;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { tool, effect } = props;
  const hasHints = Object.values(tool.hints).some((hint) => hint !== null);
  return (
    <div
      role="alert"
      className="mt-2 rounded-md border border-amber-200 bg-amber-50 p-2 text-xs text-amber-900"
    >
      <p>
        {hasHints
          ? `The server's own hints suggest ${tool.suggestedEffect}.`
          : `The server declares no hints, which MCP reads as possibly ${tool.suggestedEffect}.`}{" "}
        <strong>{effect}</strong> is lower: Switchboard will enforce less than that. Fine if you have checked
        what the tool really does.
      </p>
      <div className="mt-2 flex gap-2">
        <Button className="px-2 py-1 text-xs" onClick={props.onConfirm}>
          Set to {effect}
        </Button>
        <Button variant="secondary" className="px-2 py-1 text-xs" onClick={props.onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
