"use client";

import { Button } from "@/components/ui/button";
import { useClipboardCopy } from "@/components/ui/use-clipboard-copy";

/** A read-only value (a URL, a command line) with a Copy button; selecting it by hand works too. */
export function CopyField({ value, label, id }: { value: string; label: string; id: string }) {
  const { copyState, copy } = useClipboardCopy(value);

  return (
    <div>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          aria-label={label}
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-1.5 font-mono text-xs text-slate-800"
        />
        <Button variant="secondary" onClick={copy} aria-label={`Copy ${label}`}>
          {copyState === "copied" ? "Copied" : "Copy"}
        </Button>
      </div>
      <p aria-live="polite" className="text-xs text-slate-600">
        {copyState === "failed"
          ? "Could not reach the clipboard: select the text and copy it by hand."
          : null}
      </p>
    </div>
  );
}
