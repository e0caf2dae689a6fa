import type { ReactNode } from "react";

/** The framed panel the Overview is made of: a title row with an optional link, then content. */
export function Card({
  title,
  aside,
  children,
  testId,
}: {
  title: string;
  aside?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section
      aria-label={title}
      data-testid={testId}
      className="flex h-full flex-col rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex items-baseline justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
        {aside ? <div className="text-xs">{aside}</div> : null}
      </div>
      <div className="flex-1 px-4 py-3">{children}</div>
    </section>
  );
}
