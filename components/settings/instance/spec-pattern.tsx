import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import { isPlaceholder, type LaunchSpec } from "@/lib/policy/launch-spec-pattern";

/**
 * The program, then each argument in its own box (so an argument with spaces reads as one), `…`
 * when further arguments may follow. `argsOnly`: where the program has a column of its own. The
 * boxes are separated by spaces too, so the text reads (and copies, and is announced) as a command.
 */
export function SpecPattern({
  spec,
  argsOnly = false,
}: {
  spec: Pick<LaunchSpec, "program" | "args" | "rest">;
  argsOnly?: boolean;
}) {
  if (argsOnly && spec.args.length === 0 && !spec.rest) {
    return <span className="text-xs text-slate-500">no arguments</span>;
  }
  const parts = [
    ...(argsOnly ? [] : [{ text: spec.program, className: "font-semibold text-slate-900" }]),
    ...spec.args.map((arg) => ({
      text: arg === "" ? '""' : arg,
      className: isPlaceholder(arg)
        ? "rounded bg-indigo-50 px-1 text-indigo-700 ring-1 ring-inset ring-indigo-200"
        : "whitespace-pre rounded bg-slate-100 px-1 text-slate-800",
    })),
    ...(spec.rest ? [{ text: "…", className: "px-0.5 text-slate-500" }] : []),
  ];
  return (
    <span className="inline-flex flex-wrap items-center gap-1 font-mono text-xs">
      {parts.map((part, index) => (
        // Arguments repeat (`-y -y`): their place is their identity, and the list is never reordered.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={index}>
          {index > 0 ? " " : null}
          <span className={part.className}>{part.text}</span>
        </Fragment>
      ))}
    </span>
  );
}

export function AudienceBadge({ audience }: { audience: LaunchSpec["audience"] }) {
  return audience === "everyone" ? (
    <Badge tone="green" title="Any workspace admin may register a server with this launch">
      every workspace
    </Badge>
  ) : (
    <Badge tone="amber" title="Only a launch an instance owner saved may use this spec">
      owners only
    </Badge>
  );
}

const PLACEHOLDER_MEANINGS: Array<[string, string]> = [
  ["{package}", "one npm or PyPI package name, optionally with a version (no paths, URLs or options)"],
  ["{file}", "one path that is not an option"],
  ["{image}", "one container image reference"],
  ["{docker-run-options}", "the options of docker run before the image (only the harmless ones)"],
];

/** What the placeholders in a pattern stand for: whoever registers the server fills them in. */
export function PlaceholderLegend() {
  return (
    <div className="rounded-md bg-slate-50 px-4 py-3 text-xs text-slate-600">
      <p className="font-medium text-slate-800">
        Placeholders are filled in by whoever registers the server; everything else must match word for word.{" "}
        <span className="font-mono">…</span> means further arguments may follow.
      </p>
      <dl className="mt-2 grid grid-cols-1 gap-x-3 gap-y-1 sm:grid-cols-[12rem_minmax(0,1fr)]">
        {PLACEHOLDER_MEANINGS.map(([placeholder, meaning]) => (
          <div key={placeholder} className="contents">
            <dt className="font-mono text-indigo-700">{placeholder}</dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2">
        Options that turn a program into a code runner (<span className="font-mono">node -e</span>,{" "}
        <span className="font-mono">npx -c</span>, <span className="font-mono">python -c</span>,{" "}
        <span className="font-mono">docker run --privileged</span>…) are refused in whatever the registrant
        chooses; an exact spec, with no placeholder and no <span className="font-mono">…</span>, runs as
        written.
      </p>
    </div>
  );
}
