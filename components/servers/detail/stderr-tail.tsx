"use client";

import { useLayoutEffect, useRef } from "react";

/**
 * The server's scrubbed stderr, as plain text (it is untrusted output). Stays pinned to the newest
 * line while the reader is at the bottom; leaves them alone once they scroll up to read.
 */
export function StderrTail({ text }: { text: string }) {
  const ref = useRef<HTMLPreElement>(null);
  const isPinned = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-pin whenever new text arrives
  useLayoutEffect(() => {
    const element = ref.current;
    if (element && isPinned.current) element.scrollTop = element.scrollHeight;
  }, [text]);

  if (!text) return <p className="text-sm text-slate-500">Nothing on stderr.</p>;
  return (
    <section aria-label="stderr tail">
      <pre
        ref={ref}
        data-testid="stderr-tail"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          isPinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
        }}
        className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
      >
        {text}
      </pre>
    </section>
  );
}
