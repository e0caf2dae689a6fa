import type { CatalogDiff, KindDiff } from "@/lib/catalog/types";

const kinds = [
  ["tools", "Tools"],
  ["resources", "Resources"],
  ["resourceTemplates", "Resource templates"],
  ["prompts", "Prompts"],
] as const;

const changeStyles = {
  added: { sign: "+", className: "bg-emerald-50 text-emerald-800 ring-emerald-200", label: "added" },
  removed: { sign: "−", className: "bg-red-50 text-red-800 ring-red-200 line-through", label: "removed" },
  changed: { sign: "~", className: "bg-amber-50 text-amber-900 ring-amber-200", label: "changed" },
} as const;

const SHOWN_PER_GROUP = 20;

/** What moved since the previous snapshot, per kind: added, removed, changed entry names. */
export function SnapshotDiff({ diff }: { diff: CatalogDiff }) {
  const moved = kinds.filter(([kind]) => countOf(diff[kind]) > 0);
  if (moved.length === 0) return <p className="text-xs text-slate-500">No entries differ.</p>;
  return (
    <dl className="space-y-2">
      {moved.map(([kind, label]) => (
        <div key={kind} className="grid gap-1 sm:grid-cols-[10rem_1fr]">
          <dt className="text-xs font-medium text-slate-500">{label}</dt>
          <dd className="flex flex-wrap gap-1">
            {(["added", "removed", "changed"] as const).map((change) => (
              <ChangeGroup key={change} change={change} names={diff[kind][change]} />
            ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ChangeGroup({ change, names }: { change: keyof typeof changeStyles; names: string[] }) {
  if (names.length === 0) return null;
  const style = changeStyles[change];
  const chip = (name: string) => (
    <span
      key={name}
      title={`${style.label}: ${name}`}
      // A URI cut mid-name reads as another one: long names wrap, anywhere, rather than end in "…".
      className={`inline-block max-w-full break-all rounded px-1.5 py-0.5 font-mono text-xs ring-1 ring-inset ${style.className}`}
    >
      <span aria-hidden className="mr-1">
        {style.sign}
      </span>
      <span className="sr-only">{style.label} </span>
      {name}
    </span>
  );
  const rest = names.slice(SHOWN_PER_GROUP);
  return (
    <>
      {names.slice(0, SHOWN_PER_GROUP).map(chip)}
      {rest.length > 0 ? (
        <details className="w-full text-xs">
          <summary className="cursor-pointer text-slate-500 hover:text-slate-800">
            {rest.length} more {style.label}
          </summary>
          <div className="mt-1 flex flex-wrap gap-1">{rest.map(chip)}</div>
        </details>
      ) : null}
    </>
  );
}

function countOf(diff: KindDiff): number {
  return diff.added.length + diff.removed.length + diff.changed.length;
}
