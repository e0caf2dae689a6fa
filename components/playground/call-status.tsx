import { CallOutcomeBadge } from "@/components/calls/call-status-badge";
import type { CallDto } from "./call-queries";

/** The Calls pages' badge (one mapping, components/calls/call-format.ts): a tool error is never green here either. */
export function CallStatusBadge({ call }: { call: Pick<CallDto, "outcome"> }) {
  return <CallOutcomeBadge outcome={call.outcome} />;
}
