import type { ReactNode } from "react";

/** A heading over a section of a detail page, with an optional note on the right. */
export function SectionTitle({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="mb-2 mt-6 flex items-baseline justify-between gap-4 first:mt-0">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">{children}</h2>
      {aside ? <div className="text-xs text-slate-500">{aside}</div> : null}
    </div>
  );
}
