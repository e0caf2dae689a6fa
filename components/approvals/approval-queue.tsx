"use client";

import { useEffect, useRef } from "react";
import { CallKindBadge } from "@/components/calls/call-status-badge";
import { RelativeTime } from "@/components/calls/relative-time";
import { EffectBadge } from "@/components/ui/tool-badges";
import type { ApprovalDto } from "@/lib/approvals/types";
import { ExpiryCountdown } from "./expiry-countdown";

/** The pending calls, oldest first; the selected one is what the detail pane and the keys act on. */
export function ApprovalQueue({
  approvals,
  selectedId,
  now,
  onSelect,
}: {
  approvals: ApprovalDto[];
  selectedId: string | undefined;
  now: number;
  onSelect: (id: string) => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);

  // j/k move the selection: keep it in view, and take the focus along if it was in the list.
  useEffect(() => {
    const list = listRef.current;
    const button = selectedId
      ? list?.querySelector<HTMLButtonElement>(`[data-approval-id="${selectedId}"]`)
      : null;
    if (!list || !button) return;
    button.scrollIntoView({ block: "nearest" });
    if (list.contains(document.activeElement) && document.activeElement !== button) button.focus();
  }, [selectedId]);

  return (
    <ul
      ref={listRef}
      aria-label="Pending approvals"
      className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      {approvals.map((approval) => {
        const isSelected = approval.id === selectedId;
        const { call } = approval;
        return (
          <li key={approval.id} data-testid={`approval-${call.id}`}>
            <button
              type="button"
              data-approval-id={approval.id}
              aria-current={isSelected || undefined}
              onClick={() => onSelect(approval.id)}
              className={`block w-full border-l-4 px-4 py-3 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 ${
                isSelected ? "border-indigo-600 bg-indigo-50/70" : "border-transparent hover:bg-slate-50"
              }`}
            >
              <span className="flex flex-wrap items-center gap-2">
                <code className="break-all font-mono text-sm font-medium text-slate-900">{call.tool}</code>
                <EffectBadge effect={call.effect} />
                {call.kind !== "tool_call" ? <CallKindBadge kind={call.kind} /> : null}
                {approval.count > 1 ? (
                  <span
                    className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900"
                    title={`${approval.count} identical requests`}
                  >
                    ×{approval.count}
                  </span>
                ) : null}
              </span>
              <span className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600">
                <span>
                  by <span className="font-medium text-slate-800">{call.requester.name}</span>
                </span>
                {call.serverName ? <span>on {call.serverName}</span> : null}
                <RelativeTime iso={approval.createdAt} now={now} />
              </span>
              <span className="mt-0.5 block text-xs">
                <ExpiryCountdown expiresAt={approval.expiresAt} now={now} />
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
