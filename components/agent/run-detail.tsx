"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { callKeys } from "@/components/calls/call-queries";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import { ConnectionBadge } from "@/components/events/connection-badge";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import type { DecisionRights } from "@/lib/approvals/types";
import type { RecordedEvent } from "@/lib/events/event-types";
import { agentKeys, agentRunQuery } from "./agent-queries";
import { RunHeader } from "./run-header";
import { RunSteps } from "./run-steps";

const liveFilter = { type: ["agent_run.", "call."] };

/**
 * /agent/runs/[id]: one run as a conversation, following its own events and those of the calls it
 * made. `rights` holds what the page worked out for calls already waiting when it was rendered;
 * a call held later gets the role's rights, and the decision itself still checks the rest.
 */
export function RunDetail({
  id,
  canManage,
  canDecide,
  rights,
}: {
  id: string;
  canManage: boolean;
  canDecide: boolean;
  rights: Record<string, DecisionRights>;
}) {
  const { data: run, error } = useQuery(agentRunQuery(id));
  const callIds = new Set(
    (run?.steps ?? []).flatMap((step) => (step.kind === "tool_result" && step.callId ? [step.callId] : [])),
  );
  const keysFor = (event: RecordedEvent) => {
    if ("runId" in event) return event.runId === id ? [agentKeys.run(id)] : [];
    if ("callId" in event && callIds.has(event.callId))
      return [agentKeys.run(id), callKeys.detail(event.callId)];
    return [];
  };
  const status = useLiveInvalidation(liveFilter, keysFor, [agentKeys.run(id)]);

  if (!run) return <QueryFallback error={error} what="the run" />;
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/agent" className="text-indigo-700 underline hover:text-indigo-900">
          ← Agent
        </Link>
      </nav>
      <RunHeader run={run} canManage={canManage} />
      {error ? (
        <p role="status" className="mb-4 text-xs text-amber-800">
          Could not refresh: {error.message} Showing the last data received.
        </p>
      ) : null}
      <section aria-labelledby="steps-title" className="max-w-3xl">
        <SectionTitle aside={run.status === "running" ? <ConnectionBadge status={status} /> : null}>
          <span id="steps-title">Conversation</span>
        </SectionTitle>
        <RunSteps run={run} rightsFor={(callId) => rights[callId] ?? { canDecide, approveRefusal: null }} />
      </section>
    </>
  );
}
