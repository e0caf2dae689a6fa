"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useNotifyNewApprovals } from "@/components/approvals/approval-notifications";
import { approvalKeys, PENDING_LIMIT, pendingApprovalsQuery } from "@/components/approvals/approval-queries";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import type { RecordedEvent } from "@/lib/events/event-types";

/**
 * How many calls wait for a decision, on every page: beside Approvals in the sidebar and in the
 * tab's title ("(3) Servers · Switchboard"), so a waiting approval is seen from any tab. It shares
 * the Approvals page's query (one cache, one fetch) and follows the event stream's call events.
 */

const liveKeys = [approvalKeys.pending()] as const;
const queueEvents = new Set([
  "call.approval_required",
  "call.approved",
  "call.denied",
  "call.expired",
  "call.cancelled",
]);
const keysFor = (event: RecordedEvent) => (queueEvents.has(event.type) ? liveKeys : []);

export function usePendingApprovalCount(): string | null {
  useLiveInvalidation({ type: "call." }, keysFor, liveKeys);
  const { data } = useQuery(pendingApprovalsQuery());
  useNotifyNewApprovals(data?.approvals);
  if (!data || data.approvals.length === 0) return null;
  return data.approvals.length >= PENDING_LIMIT ? `${PENDING_LIMIT}+` : String(data.approvals.length);
}

const PREFIX = /^\(\d+\+?\) /;

/** Keeps "(n) " in front of the tab's title; Next.js sets the title on each navigation, so it is re-applied then. */
export function usePendingTitle(count: string | null): void {
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(PREFIX, "");
      const next = count ? `(${count}) ${base}` : base;
      if (document.title !== next) document.title = next;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      document.title = document.title.replace(PREFIX, "");
    };
  }, [count]);
}

export function PendingBadge({ count }: { count: string | null }) {
  if (!count) return null;
  return (
    <span
      data-testid="pending-approvals-count"
      className="ml-auto rounded-full bg-amber-400 px-2 py-0.5 text-xs font-semibold text-slate-900"
    >
      <span className="sr-only">, waiting: </span>
      {count}
    </span>
  );
}
