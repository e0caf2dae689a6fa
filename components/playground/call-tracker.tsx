"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { DecideCall } from "@/components/calls/decide-call";
import { Time } from "@/components/ui/time";
import { useEventStream } from "@/lib/client/event-stream";
import { type CallDto, callWaitQuery, isFinishedCall, playgroundCallKey } from "./call-queries";
import { CallResult } from "./call-result";
import { useOwnCallRights } from "./own-call-rights";

/**
 * A call that came back unfinished (held for approval, or approved and still running): follows it
 * with bounded waits until it ends, and shows each step as the event stream reports it.
 */
export function CallTracker({ initial }: { initial: CallDto }) {
  const { data, error } = useQuery({ ...callWaitQuery(initial.id), enabled: !isFinishedCall(initial) });
  const [step, setStep] = useState<string | null>(null);
  const rights = useOwnCallRights();
  const queryClient = useQueryClient();
  const call = data ?? initial;
  const isDone = isFinishedCall(call);
  useEventStream(isDone ? null : { call: call.id }, (event) => setStep(stepLabels[event.type] ?? null));

  if (isDone) return <CallResult call={call} />;
  const isHeld = call.status === "pending_approval" && step === null;

  return (
    <section
      aria-live="polite"
      data-testid="call-waiting"
      className="rounded-lg border border-amber-200 bg-amber-50 p-5 text-sm text-amber-900"
    >
      <p className="font-medium">
        <span
          aria-hidden
          className="mr-2 inline-block h-3 w-3 animate-spin rounded-full border-2 border-amber-300 border-t-amber-700 align-middle"
        />
        {isHeld ? (
          <>
            Waiting for approval — call <code className="break-all font-mono">{call.id}</code>
          </>
        ) : (
          (step ?? "Approved — running…")
        )}
      </p>
      {isHeld && call.approval ? (
        <>
          <p className="mt-2">
            {call.approval.requiredBecause ?? "The approval rules hold this call for a person."} It expires at{" "}
            <Time iso={call.approval.expiresAt} />. This page keeps waiting; it can also be decided in{" "}
            <Link href="/approvals" className="font-medium text-indigo-700 underline">
              Approvals
            </Link>
            .
          </p>
          <div className="mt-3 rounded-md border border-amber-200 bg-white p-3 text-slate-900">
            <DecideCall
              call={call}
              rights={rights}
              // The bounded wait would notice on its own; asking again now shows the outcome at once.
              onDecided={() => void queryClient.invalidateQueries({ queryKey: playgroundCallKey(call.id) })}
            />
          </div>
        </>
      ) : null}
      {error ? (
        <p className="mt-2 text-xs text-red-700">Lost track for a moment ({error.message}); retrying…</p>
      ) : null}
    </section>
  );
}

const stepLabels: Record<string, string> = {
  "call.approved": "Approved — starting…",
  "call.started": "Running…",
};
