import { Badge } from "@/components/ui/badge";
import type { CallKind, CallStatus } from "@/lib/calls/types";
import { callKinds, callStatuses } from "./call-format";

export function CallStatusBadge({ status }: { status: CallStatus }) {
  const meta = callStatuses[status] ?? { label: status, tone: "neutral" as const, title: status };
  return (
    <Badge tone={meta.tone} title={meta.title}>
      <span
        aria-hidden
        className={`h-1.5 w-1.5 rounded-full bg-current ${status === "running" || status === "pending_approval" ? "animate-pulse" : ""}`}
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

/** The server answered, but with `isError: true`: the call ran and the tool reported a failure. */
export function ToolErrorBadge() {
  return (
    <Badge tone="red" title="The tool ran and answered with isError: true">
      tool error
    </Badge>
  );
}
