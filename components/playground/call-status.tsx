import { Badge, type Tone } from "@/components/ui/badge";
import type { CallDto } from "./call-queries";

const statuses: Record<CallDto["status"], { tone: Tone; label: string }> = {
  pending_approval: { tone: "amber", label: "Waiting for approval" },
  approved: { tone: "blue", label: "Approved" },
  running: { tone: "blue", label: "Running" },
  succeeded: { tone: "green", label: "Succeeded" },
  failed: { tone: "red", label: "Failed" },
  denied: { tone: "red", label: "Denied" },
  expired: { tone: "slate", label: "Expired" },
  cancelled: { tone: "slate", label: "Cancelled" },
};

export function CallStatusBadge({ status }: { status: CallDto["status"] }) {
  const s = statuses[status];
  return <Badge tone={s.tone}>{s.label}</Badge>;
}
