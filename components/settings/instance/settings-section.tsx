import type { ReactNode } from "react";

/** A card of Settings → Instance: a heading, one sentence on why it matters, then its content. */
export function SettingsSection({
  id,
  title,
  why,
  children,
}: {
  id: string;
  title: string;
  why: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      data-testid={`instance-${id}`}
      className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">{why}</p>
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}
