"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState, useTransition } from "react";
import { cancelAgentRunAction } from "@/app/(dashboard)/agent/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { type AgentRunDto, agentKeys } from "./agent-queries";
import { RunStatusBadge } from "./run-status-badge";

/** A run's page header: where it stands, as whom and on what, its counters against its limits. */
export function RunHeader({ run, canManage }: { run: AgentRunDto; canManage: boolean }) {
  const figures = [
    { label: "Rounds", value: `${run.rounds} of ${run.limits.maxRounds}` },
    { label: "Tool calls", value: `${run.toolCalls} of ${run.limits.maxToolCalls}` },
    {
      label: "Tokens",
      value: `${run.tokens.toLocaleString("en")} of ${run.limits.maxTokens.toLocaleString("en")}`,
    },
    { label: "Time limit", value: `${run.limits.timeoutSeconds} s` },
  ];
  return (
    <div className="mb-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight text-slate-900">
            Agent run
            <span data-testid="run-status">
              <RunStatusBadge status={run.status} />
            </span>
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            As <span className="font-medium text-slate-900">{run.principal.name}</span> on{" "}
            <span className="font-medium text-slate-900">{run.model}</span> · started by {run.startedBy},{" "}
            <Time iso={run.createdAt} />
            {run.endedAt ? (
              <>
                {" "}
                · ended <Time iso={run.endedAt} />
              </>
            ) : null}
          </p>
        </div>
        {canManage && run.status === "running" ? <CancelRun id={run.id} /> : null}
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.label} className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{figure.label}</dt>
            <dd className="mt-1 font-mono text-sm text-slate-900">{figure.value}</dd>
          </div>
        ))}
      </dl>
      {run.stopReason ? (
        <p
          data-testid="stop-reason"
          className={`mt-4 rounded-md border px-4 py-3 text-sm ${run.status === "failed" ? "border-red-200 bg-red-50 text-red-800" : "border-slate-200 bg-slate-50 text-slate-700"}`}
        >
          <span className="font-medium">Stopped:</span> {run.stopReason}
        </p>
      ) : null}
    </div>
  );
}

function CancelRun({ id }: { id: string }) {
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const queryClient = useQueryClient();
  const cancel = () =>
    startTransition(async () => {
      const result = await cancelAgentRunAction(id);
      setError(result.ok ? null : result.error.message);
      await queryClient.invalidateQueries({ queryKey: agentKeys.all });
    });
  return (
    <div className="flex flex-col items-end gap-2">
      <Button variant="danger" onClick={cancel} disabled={isPending}>
        {isPending ? "Cancelling…" : "Cancel run"}
      </Button>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
