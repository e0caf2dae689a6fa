import Link from "next/link";
import { formatAgo } from "@/components/calls/call-format";
import type { ApprovalDto } from "@/lib/approvals/types";
import { Card } from "./card";

/** How many calls wait for a person, and for how long the oldest has. */
export function ApprovalsCard({
  pending,
  isCapped,
  now,
}: {
  pending: ApprovalDto[];
  isCapped: boolean;
  now: number;
}) {
  const oldest = pending[0]; // the queue is oldest first
  return (
    <Card title="Pending approvals" testId="overview-approvals">
      <Link href="/approvals" className="group block">
        <p className="text-3xl font-semibold tabular-nums text-slate-900 group-hover:text-indigo-700">
          {pending.length}
          {isCapped ? "+" : ""}
        </p>
        <p className="mt-1 text-sm text-slate-600" suppressHydrationWarning>
          {oldest ? `The oldest was requested ${formatAgo(oldest.createdAt, now)}.` : "Nothing is waiting."}
        </p>
        <p className="mt-2 text-xs font-medium text-indigo-700 group-hover:underline">
          {pending.length > 0 ? "Review the queue →" : "Open approvals →"}
        </p>
      </Link>
    </Card>
  );
}
