"use client";

import { useState } from "react";

export type CopyState = "idle" | "copied" | "failed";

/** Copies `value` on demand and says how it went; "failed" means: let the person select it by hand. */
export function useClipboardCopy(value: string): { copyState: CopyState; copy: () => Promise<void> } {
  const [copyState, setCopyState] = useState<CopyState>("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopyState("copied");
    } catch {
      // Clipboard access needs a secure context and permission; selecting lets the person copy by hand.
      setCopyState("failed");
    }
  };
  return { copyState, copy };
}
