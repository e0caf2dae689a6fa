"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import { useNow } from "@/components/calls/use-now";
import { Badge } from "@/components/ui/badge";
import { SectionTitle } from "@/components/ui/section-title";
import type { ElicitationAction } from "@/lib/elicitations/types";
import { ElicitationForm } from "./elicitation-form";
import { elicitationKeys, pendingElicitationsQuery } from "./elicitation-queries";
import { ExpiryCountdown } from "./expiry-countdown";

const liveKeys = [elicitationKeys.all] as const;
const answeredWords: Record<ElicitationAction, string> = {
  accept: "Answer sent to the server.",
  decline: "Declined: the server was told no.",
  cancel: "Question cancelled.",
};

/**
 * Servers' questions during calls whose callers cannot answer them (lib/elicitations), above the
 * approval queue: each with who asks, during which call, and a form for the answer. Shows nothing
 * while none is waiting, so the approvals page reads as before.
 */
export function ElicitationQueue({ canDecide }: { canDecide: boolean }) {
  const queryClient = useQueryClient();
  const { data, error } = useQuery(pendingElicitationsQuery());
  useLiveInvalidation({ type: "elicitation." }, () => liveKeys, liveKeys);
  const now = useNow(1000);
  const [notice, setNotice] = useState<string | null>(null);
  const questions = data?.elicitations ?? [];

  const onAnswered = (action: ElicitationAction) => {
    setNotice(answeredWords[action]);
    void queryClient.invalidateQueries({ queryKey: elicitationKeys.all });
  };

  if (error)
    return (
      <p className="mb-4 text-sm text-red-700">Could not load the servers' questions: {error.message}</p>
    );
  return (
    <div className="mb-6" aria-live="polite">
      {notice ? <p className="mb-2 text-sm text-emerald-700">{notice}</p> : null}
      {questions.length === 0 ? null : (
        <section aria-label="Questions from servers">
          <SectionTitle>Questions from servers</SectionTitle>
          <ul className="mt-2 space-y-3">
            {questions.map((question) => (
              <li key={question.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
                  <Badge tone="blue">Question from {question.serverName}</Badge>
                  <span className="text-slate-500">
                    during{" "}
                    <Link className="text-indigo-700 underline" href={`/calls/${question.callId}`}>
                      {question.tool ?? "a call"}
                    </Link>
                  </span>
                  <span className="ml-auto text-xs">
                    <ExpiryCountdown expiresAt={question.expiresAt} now={now} />
                  </span>
                </div>
                <p className="mb-3 whitespace-pre-wrap text-sm text-slate-900">{question.message}</p>
                <ElicitationForm elicitation={question} canDecide={canDecide} onAnswered={onAnswered} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
