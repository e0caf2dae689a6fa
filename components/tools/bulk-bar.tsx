"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { effectLabels, effectOrder, isEffectClass } from "./effects";
import { SuggestionsDialog } from "./suggestions-dialog";
import type { GovernedToolDto } from "./tool-queries";
import { useUpdateTools } from "./use-update-tools";

/**
 * What an admin does to the selected tools at once: one effect for all, or each server's own
 * suggestion after reading them in a dialog. Either is one all-or-nothing request. The selection
 * stays after saving, so the rows show what changed; "Clear selection" ends it.
 */
export function BulkBar({ tools, onDone }: { tools: GovernedToolDto[]; onDone: () => void }) {
  const update = useUpdateTools();
  const [effect, setEffect] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const selectId = useId();

  const apply = (changes: { id: string; effect: GovernedToolDto["suggestedEffect"] }[], message: string) =>
    update.mutate(changes, {
      onSuccess: () => {
        dialog.current?.close();
        setSaved(message);
        setEffect("");
      },
    });
  const plural = (n: number) => `${n} tool${n === 1 ? "" : "s"}`;
  const suggested = tools.filter((tool) => tool.effect !== tool.suggestedEffect);

  return (
    <section
      aria-label="Selected tools"
      className="sticky top-0 z-10 mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-2 shadow-sm"
    >
      <span className="whitespace-nowrap text-sm font-medium text-indigo-900">
        {plural(tools.length)} selected
      </span>
      <form
        className="flex items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (isEffectClass(effect))
            apply(
              tools.map((tool) => ({ id: tool.id, effect })),
              `Set ${plural(tools.length)} to ${effect}.`,
            );
        }}
      >
        <label htmlFor={selectId} className="whitespace-nowrap text-xs font-medium text-slate-600">
          Set effect
        </label>
        <select
          id={selectId}
          value={effect}
          onChange={(event) => setEffect(event.target.value)}
          // A fixed width: inputClass fills its container, which would push the buttons onto new lines.
          className={`${inputClass.replace("w-full", "w-64")} py-1`}
        >
          <option value="">Choose…</option>
          {effectOrder.map((value) => (
            <option key={value} value={value}>
              {effectLabels[value]}
            </option>
          ))}
        </select>
        <Button
          type="submit"
          className="whitespace-nowrap"
          disabled={!isEffectClass(effect) || update.isPending}
        >
          {update.isPending ? "Saving…" : "Set effect"}
        </Button>
      </form>
      <Button
        variant="secondary"
        onClick={() => {
          update.reset();
          dialog.current?.showModal();
        }}
      >
        Apply suggestions…
      </Button>
      <Button variant="ghost" onClick={onDone}>
        Clear selection
      </Button>
      {update.error && !dialog.current?.open ? (
        <p role="alert" className="w-full text-xs text-red-700">
          {update.error.message}
        </p>
      ) : saved ? (
        <p role="status" className="w-full text-xs text-emerald-800">
          {saved}
        </p>
      ) : null}
      <SuggestionsDialog
        ref={dialog}
        tools={tools}
        isPending={update.isPending}
        error={update.error?.message ?? null}
        onConfirm={() =>
          apply(
            suggested.map((tool) => ({ id: tool.id, effect: tool.suggestedEffect })),
            `Applied the suggested effect to ${plural(suggested.length)}.`,
          )
        }
      />
    </section>
  );
}
