"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { CallOutcomeBadge } from "@/components/calls/call-status-badge";
import { Badge } from "@/components/ui/badge";
import type { AgentRunStep } from "@/lib/agents/types";
import type { DecisionRights } from "@/lib/approvals/types";
import type { CallOutcome } from "@/lib/calls/types";
import type { AgentRunDto } from "./agent-queries";
import { PendingApproval } from "./pending-approval";
import { ToolCallArguments } from "./tool-call-arguments";

type ToolResult = Extract<AgentRunStep, { kind: "tool_result" }>;

/** A run's steps as a conversation: the prompt, each model turn and tool result, the answer. */
export function RunSteps({
  run,
  rightsFor,
}: {
  run: AgentRunDto;
  rightsFor: (callId: string) => DecisionRights;
}) {
  const last = run.steps.at(-1);
  const isWaitingForPerson = last?.kind === "tool_result" && last.status === "pending_approval";
  return (
    <ol className="space-y-3" aria-label="Steps">
      {run.steps.map((step, index) =>
        repeatsTheAnswer(step, run.steps[index + 1]) ? null : (
          // Steps are only ever appended, and the last one replaced in place: the index is stable.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index}>
            <Step step={step} run={run} rightsFor={rightsFor} />
          </li>
        ),
      )}
      {run.status === "running" && !isWaitingForPerson ? (
        <li role="status" className="flex items-center gap-2 px-1 text-sm text-slate-600">
          <span
            aria-hidden
            className="h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600"
          />
          {last?.kind === "assistant" && last.toolCalls.length > 0 ? "Calling tools…" : "Asking the model…"}
        </li>
      ) : null}
    </ol>
  );
}

/** The model's last turn, when it is the answer shown right after it: said once, as the answer. */
function repeatsTheAnswer(step: AgentRunStep, next: AgentRunStep | undefined): boolean {
  return (
    step.kind === "assistant" &&
    step.toolCalls.length === 0 &&
    next?.kind === "answer" &&
    next.text === (step.text ?? "")
  );
}

function Step({
  step,
  run,
  rightsFor,
}: {
  step: AgentRunStep;
  run: AgentRunDto;
  rightsFor: (callId: string) => DecisionRights;
}) {
  switch (step.kind) {
    case "prompt":
      return (
        <Bubble label={`Prompt · from ${run.startedBy}`} tone="border-slate-200 bg-white">
          <p className="whitespace-pre-wrap wrap-anywhere text-sm text-slate-900">{step.text}</p>
        </Bubble>
      );
    case "assistant":
      return (
        <Bubble label={`Model · round ${step.round}`} tone="border-indigo-100 bg-indigo-50/50">
          {step.text ? (
            <p className="whitespace-pre-wrap wrap-anywhere text-sm text-slate-900">{step.text}</p>
          ) : null}
          {step.toolCalls.length > 0 ? (
            <ul className={`space-y-2 ${step.text ? "mt-3" : ""}`} aria-label="Tool calls">
              {step.toolCalls.map((call) => (
                <li key={call.id} className="rounded-md border border-indigo-100 bg-white p-3">
                  <p className="mb-2 text-xs text-slate-600">
                    Calls <span className="font-mono font-medium text-slate-900">{call.name}</span>
                  </p>
                  <ToolCallArguments raw={call.arguments} />
                </li>
              ))}
            </ul>
          ) : null}
        </Bubble>
      );
    case "tool_result":
      return <ToolResultStep step={step} runId={run.id} rightsFor={rightsFor} />;
    case "answer":
      return (
        <Bubble label="Answer" tone="border-emerald-200 bg-emerald-50/60" testId="run-answer">
          <p className="whitespace-pre-wrap wrap-anywhere text-sm text-slate-900">{step.text}</p>
        </Bubble>
      );
  }
}

function ToolResultStep({
  step,
  runId,
  rightsFor,
}: {
  step: ToolResult;
  runId: string;
  rightsFor: (callId: string) => DecisionRights;
}) {
  const isPending = step.status === "pending_approval" && step.callId !== null;
  return (
    <Bubble
      label={`Tool result · round ${step.round}`}
      tone="border-slate-200 bg-white"
      testId="tool-result"
      aside={
        <span className="flex flex-wrap items-center gap-2">
          <ToolResultBadge step={step} />
          {step.callId ? (
            <Link
              href={`/calls/${step.callId}`}
              className="text-xs font-medium text-indigo-700 underline hover:text-indigo-900"
            >
              Call {step.callId.slice(0, 8)}
              <span className="sr-only"> ({step.name})</span>
            </Link>
          ) : null}
        </span>
      }
    >
      <p className="font-mono text-xs font-medium text-slate-900">{step.name}</p>
      {isPending && step.callId ? (
        <PendingApproval runId={runId} callId={step.callId} rights={rightsFor(step.callId)} />
      ) : (
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          tabIndex={0}
          aria-label={`Result of ${step.name}`}
          className={`mt-2 max-h-64 overflow-auto rounded-md p-3 focus-visible:outline-2 focus-visible:outline-indigo-500 ${step.isError ? "bg-red-50 text-red-800" : "bg-slate-50 text-slate-800"}`}
        >
          <pre className="whitespace-pre-wrap wrap-anywhere font-mono text-xs">
            {step.text || "(no text)"}
          </pre>
        </section>
      )}
    </Bubble>
  );
}

function ToolResultBadge({ step }: { step: ToolResult }) {
  if (step.status === "refused")
    return (
      <Badge tone="red" title="Refused before a call was made: not offered, or arguments that do not fit">
        Refused
      </Badge>
    );
  const outcome = step.status === "succeeded" && step.isError ? "tool_error" : step.status;
  return <CallOutcomeBadge outcome={outcome as CallOutcome} />;
}

function Bubble({
  label,
  tone,
  aside,
  testId,
  children,
}: {
  label: string;
  tone: string;
  aside?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <article data-testid={testId} aria-label={label} className={`rounded-lg border p-4 shadow-sm ${tone}`}>
      <header className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</h3>
        {aside}
      </header>
      {children}
    </article>
  );
}
