"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { callKeys } from "@/components/calls/call-queries";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import { useNow } from "@/components/calls/use-now";
import { ConnectionBadge } from "@/components/events/connection-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import type { ApprovalDto } from "@/lib/approvals/types";
import { ApprovalDetail } from "./approval-detail";
import { NotifyMeButton } from "./approval-notifications";
import { approvalKeys, pendingApprovalsQuery } from "./approval-queries";
import { ApprovalQueue } from "./approval-queue";
import { DecidedHistory } from "./decided-history";
import type { Decision, DecisionResult } from "./decision-form";
import { DecisionNotice, describeDecision, type Notice } from "./decision-notice";
import { ShortcutLegend } from "./shortcut-legend";
import { useShortcuts } from "./use-shortcuts";

const liveKeys = [approvalKeys.all, callKeys.all] as const;

/** The approval queue with its detail pane, live from the event stream, and the decided history. */
export function ApprovalsView({ canDecide }: { canDecide: boolean }) {
  const queryClient = useQueryClient();
  const { data, error } = useQuery(pendingApprovalsQuery());
  const status = useLiveInvalidation({ type: "call." }, () => liveKeys, liveKeys);
  const now = useNow(1000);
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Where the selection was: when that call leaves the queue, the one that took its place is next.
  const lastIndex = useRef(0);

  const queue = data?.approvals ?? [];
  const found = queue.findIndex((a) => a.id === selectedId);
  const index = found >= 0 ? found : Math.min(lastIndex.current, queue.length - 1);
  const selected: ApprovalDto | undefined = queue[index];
  useEffect(() => {
    if (index >= 0) lastIndex.current = index;
  }, [index]);

  const detailRef = useRef<HTMLDivElement>(null);
  // Below `lg` the detail sits under the list: a tap on a call brings it up (list → detail on a phone).
  const open = (id: string) => {
    setSelectedId(id);
    if (window.matchMedia("(max-width: 1023.98px)").matches)
      requestAnimationFrame(() => detailRef.current?.scrollIntoView({ block: "start" }));
  };

  const select = (next: number) => {
    const target = queue[Math.max(0, Math.min(queue.length - 1, next))];
    if (target) setSelectedId(target.id);
  };
  // An approval that runs out of time is closed by the server's next read: ask for one then, so
  // it leaves the queue (and shows as expired below) without waiting for another event.
  const hasOverdue = queue.some((approval) => Date.parse(approval.expiresAt) <= now);
  useEffect(() => {
    if (hasOverdue) void queryClient.invalidateQueries({ queryKey: approvalKeys.all });
  }, [hasOverdue, queryClient]);

  useShortcuts({ j: () => select(index + 1), k: () => select(index - 1) }, queue.length > 0);

  const onDecided = (approval: ApprovalDto, decision: Decision, result: DecisionResult) => {
    setNotice(describeDecision(approval.call.tool, decision, result));
    // Decided either way (by us, or by someone else first): refresh now rather than wait for the event.
    for (const queryKey of liveKeys) void queryClient.invalidateQueries({ queryKey });
  };

  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <ConnectionBadge status={status} />
          <NotifyMeButton />
        </div>
        {queue.length > 0 ? <ShortcutLegend canDecide={canDecide} /> : null}
      </div>
      <div aria-live="polite">
        {notice ? <DecisionNotice notice={notice} onDismiss={() => setNotice(null)} /> : null}
      </div>
      {!data ? (
        <QueryFallback error={error} what="the approval queue" />
      ) : queue.length === 0 ? (
        <EmptyState title="Nothing is waiting for approval">
          Calls that need a person's decision appear here the moment they are made; this page updates by
          itself.
        </EmptyState>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div>
            <p className="mb-2 text-xs text-slate-500" data-testid="pending-count">
              {queue.length} waiting · oldest first
            </p>
            <ApprovalQueue approvals={queue} selectedId={selected?.id} now={now} onSelect={open} />
          </div>
          {/* scroll-mt: clear of the phone's sticky top bar (components/shell/dashboard-shell.tsx) */}
          <div ref={detailRef} className="min-w-0 scroll-mt-16">
            {selected ? (
              <ApprovalDetail approval={selected} now={now} canDecide={canDecide} onDecided={onDecided} />
            ) : null}
          </div>
        </div>
      )}
      {error && data ? (
        <p role="status" className="mt-2 text-xs text-amber-800">
          Could not refresh the queue: {error.message} Showing the last data received.
        </p>
      ) : null}
      <SectionTitle>Decided</SectionTitle>
      <DecidedHistory />
    </div>
  );
}
