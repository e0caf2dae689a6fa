"use client";

import { Button } from "@/components/ui/button";
import { useClipboardCopy } from "@/components/ui/use-clipboard-copy";

/**
 * A secret shown once (a key, an invitation link): it lives in this component's state only (never
 * in the query cache or the URL), so leaving the page or dismissing it loses it for good — only its
 * hash is stored.
 */
export function OneTimeValue({
  value,
  what = "key",
  label,
  usage,
  onDismiss,
}: {
  value: string;
  /** what it is, as in "The new key — copy it now" */
  what?: string;
  /** the input's accessible name, e.g. "New gateway key" */
  label: string;
  /** where the key goes, shown under it */
  usage: React.ReactNode;
  onDismiss: () => void;
}) {
  const { copyState, copy } = useClipboardCopy(value);

  return (
    <div data-testid="one-time-value" className="mt-3 rounded-md border border-emerald-200 bg-emerald-50 p-3">
      <p className="text-xs font-medium text-emerald-800">
        The new {what} — copy it now: it will not be shown again.
      </p>
      <div className="mt-1 flex gap-2">
        <input
          readOnly
          aria-label={label}
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full rounded-md border border-emerald-300 bg-white px-3 py-1.5 font-mono text-sm"
        />
        <Button variant="secondary" onClick={copy}>
          {copyState === "copied" ? "Copied" : "Copy"}
        </Button>
        <Button variant="ghost" onClick={onDismiss}>
          Done
        </Button>
      </div>
      <p aria-live="polite" className="mt-1 text-xs text-emerald-800">
        {copyState === "failed" ? "Could not reach the clipboard: select it and copy it by hand." : null}
      </p>
      <p className="mt-1 text-xs text-slate-600">{usage}</p>
    </div>
  );
}
