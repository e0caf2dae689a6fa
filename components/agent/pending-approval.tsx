"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { callKeys, callQuery } from "@/components/calls/call-queries";
import { DecideCall } from "@/components/calls/decide-call";
import { Time } from "@/components/ui/time";
import type { DecisionRights } from "@/lib/approvals/types";
import { agentKeys } from "./agent-queries";

/**
 * A run's tool call held for approval, decided where the run is read: the call page's own Approve /
 * Deny (DecideCall, the Approvals page's actions), for this call only.
 */
export function PendingApproval({
  runId,
  callId,
  rights,
}: {
  runId: string;
  callId: string;
  rights: DecisionRights;
}) {
  const { data, error } = useQuery(callQuery(callId));
  const queryClient = useQueryClient();
  const call = data?.call;
  const approval = call?.approval;

  return (
    <div
      data-testid="pending-approval"
      className="mt-3 rounded-md border border-amber-200 bg-amber-50/60 p-3"
    >
      <p className="text-sm font-medium text-amber-900">
        Waiting for approval: the run goes on once someone decides.
      </p>
      {approval?.status === "pending" ? (
        <p className="mt-1 text-sm text-slate-700">
          {approval.requiredBecause ?? "The approval rules hold this call for a person."} It expires at{" "}
          <Time iso={approval.expiresAt} />.
        </p>
      ) : null}
      {error ? (
        <p className="mt-2 text-sm text-red-700">Could not load the call: {error.message}</p>
      ) : !call ? (
        <p className="mt-2 text-sm text-slate-600">Loading the approval…</p>
      ) : approval?.status === "pending" ? (
        <div className="mt-3 rounded-md border border-amber-200 bg-white p-3">
          <DecideCall
            call={call}
            rights={rights}
            // The event stream refreshes both too; this shows the outcome without waiting for it.
            onDecided={() => {
              void queryClient.invalidateQueries({ queryKey: callKeys.detail(callId) });
              void queryClient.invalidateQueries({ queryKey: agentKeys.run(runId) });
            }}
          />
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-700">Decided; the run picks it up now.</p>
      )}
      <p className="mt-2 text-xs text-slate-600">
        Also on{" "}
        <Link href={`/calls/${callId}`} className="text-indigo-700 underline">
          the call's page
        </Link>{" "}
        and in{" "}
        <Link href="/approvals" className="text-indigo-700 underline">
          Approvals
        </Link>
        .
      </p>
    </div>
  );
}
