"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { QueryFallback } from "@/components/ui/query-fallback";
import { Time } from "@/components/ui/time";
import type { ApprovalDto } from "@/lib/approvals/types";
import { decidedApprovalsQuery } from "./approval-queries";

const outcomes: Record<string, { tone: Tone; label: string }> = {
  approved: { tone: "green", label: "Approved" },
  denied: { tone: "red", label: "Denied" },
  expired: { tone: "slate", label: "Expired" },
  cancelled: { tone: "slate", label: "Withdrawn" },
};

/** Decisions already made, newest first: who decided what, when, and why. */
export function DecidedHistory() {
  const { data, error, fetchNextPage, hasNextPage, isFetchingNextPage } = useInfiniteQuery(
    decidedApprovalsQuery(),
  );
  if (!data) return <QueryFallback error={error} what="decided approvals" />;
  const approvals = data.pages.flatMap((page) => page.approvals);
  if (approvals.length === 0) {
    return <p className="text-sm text-slate-500">No approval has been decided yet.</p>;
  }
  return (
    <div>
      <DataTable
        columns={[
          { label: "Tool" },
          { label: "Requested by" },
          { label: "Outcome" },
          { label: "Decided by" },
          { label: "When" },
          { label: "Reason", className: "w-1/3" },
        ]}
      >
        {approvals.map((approval) => (
          <HistoryRow key={approval.id} approval={approval} />
        ))}
      </DataTable>
      {hasNextPage ? (
        <div className="mt-3 flex justify-center">
          <Button variant="secondary" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {isFetchingNextPage ? "Loading…" : "Load older decisions"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function HistoryRow({ approval }: { approval: ApprovalDto }) {
  const outcome = outcomes[approval.status] ?? { tone: "neutral" as const, label: approval.status };
  const decider =
    approval.decidedBy?.name ??
    (approval.status === "expired"
      ? "no one, in time"
      : approval.status === "cancelled"
        ? "the caller"
        : "—");
  return (
    <tr data-testid={`decided-${approval.call.id}`} className="hover:bg-slate-50/60">
      <td className="px-4 py-3 align-top">
        <Link
          href={`/calls/${approval.call.id}`}
          className="whitespace-nowrap font-mono text-xs font-medium text-slate-900 hover:text-indigo-700 hover:underline"
        >
          {approval.call.tool}
        </Link>
      </td>
      <td className="px-4 py-3 align-top text-slate-700">{approval.call.requester.name}</td>
      <td className="px-4 py-3 align-top">
        <Badge tone={outcome.tone}>{outcome.label}</Badge>
      </td>
      <td className="px-4 py-3 align-top text-slate-700">{decider}</td>
      <td className="whitespace-nowrap px-4 py-3 align-top text-slate-600">
        <Time iso={approval.decidedAt} />
      </td>
      <td className="px-4 py-3 align-top text-slate-700">
        {approval.reason ? (
          <p className="line-clamp-3 whitespace-pre-wrap wrap-anywhere" title={approval.reason}>
            {approval.reason}
          </p>
        ) : (
          <span className="text-slate-400">—</span>
        )}
      </td>
    </tr>
  );
}
