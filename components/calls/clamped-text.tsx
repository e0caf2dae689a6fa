"use client";

import { useState } from "react";

const MAX_CHARS = 280;
const MAX_LINES = 4;

/** Untrusted text as plain text; long or multi-line values start clamped with a way to expand. */
export function ClampedText({ text, className = "" }: { text: string; className?: string }) {
  const [isOpen, setOpen] = useState(false);
  const isLong = text.length > MAX_CHARS || text.split("\n").length > MAX_LINES;
  return (
    <div className={className}>
      <p className={`whitespace-pre-wrap wrap-anywhere ${isLong && !isOpen ? "line-clamp-4" : ""}`}>{text}</p>
      {isLong ? (
        <button
          type="button"
          aria-expanded={isOpen}
          onClick={() => setOpen(!isOpen)}
          className="mt-1 text-xs font-medium text-indigo-700 hover:text-indigo-900 hover:underline"
        >
          {isOpen ? "Show less" : `Show all · ${text.length.toLocaleString()} characters`}
        </button>
      ) : null}
    </div>
  );
}
