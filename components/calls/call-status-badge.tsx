import { Badge } from "@/components/ui/badge";
import type { CallKind, CallOutcome } from "@/lib/calls/types";
import { callKinds, callOutcomes } from "./call-format";

/** How the call ended (or where it stands): the one badge of the Calls list, call page, Playground and Overview. */
export function CallOutcomeBadge({ outcome }: { outcome: CallOutcome }) {
  const meta = callOutcomes[outcome] ?? { label: outcome, tone: "neutral" as const, title: outcome };
  return (
    <Badge tone={meta.tone} title={meta.title}>
      <span
        aria-hidden
        className={`h-1.5 w-1.5 rounded-full bg-current ${outcome === "running" || outcome === "pending_approval" ? "animate-pulse" : ""}`}
      />
      {meta.label}
    </Badge>
  );
}

/** A tool call, a resource read or a prompt get. */
export function CallKindBadge({ kind }: { kind: CallKind }) {
  const meta = callKinds[kind] ?? { label: kind, tone: "neutral" as const, title: kind };
  return (
    <Badge tone={meta.tone} title={meta.title}>
      {meta.label}
    </Badge>
  );
}
