"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLiveInvalidation } from "@/components/calls/use-live-invalidation";
import { ConnectionBadge } from "@/components/events/connection-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import { agentKeys, agentRunsQuery, type ModelConnectionDto, modelConnectionsQuery } from "./agent-queries";
import { ModelConnectionForm } from "./model-connection-form";
import { ModelConnections } from "./model-connections";
import { RunsTable } from "./runs-table";
import { type PrincipalOption, StartRunForm } from "./start-run-form";

const runKeys = [agentKeys.runs()];

/**
 * /agent: admins start runs (once there is a model connection and a principal) and manage the
 * model connections; everyone sees the latest runs, refreshed on each agent_run event.
 */
export function AgentView({
  canManage,
  principals,
  secretNames,
}: {
  canManage: boolean;
  principals: PrincipalOption[];
  secretNames: string[];
}) {
  const connections = useQuery(modelConnectionsQuery());
  const runs = useQuery(agentRunsQuery());
  const status = useLiveInvalidation({ type: "agent_run." }, () => runKeys, runKeys);

  return (
    <>
      {canManage ? (
        <StartSection
          connections={connections.data}
          error={connections.error}
          principals={principals}
          secretNames={secretNames}
        />
      ) : null}
      <section aria-labelledby="runs-title">
        <SectionTitle aside={<ConnectionBadge status={status} />}>
          <span id="runs-title">Runs</span>
        </SectionTitle>
        {!runs.data ? (
          <QueryFallback error={runs.error} what="the runs" />
        ) : runs.data.length === 0 ? (
          <EmptyState title="No runs yet">
            {canManage
              ? "Start one above: it shows here, and its page follows it step by step."
              : "Runs that admins start show here, each with its conversation and tool calls."}
          </EmptyState>
        ) : (
          <RunsTable runs={runs.data} />
        )}
      </section>
    </>
  );
}

/** The admin's half: the start form, or what is missing before a run can start. */
function StartSection({
  connections,
  error,
  principals,
  secretNames,
}: {
  connections: ModelConnectionDto[] | undefined;
  error: Error | null;
  principals: PrincipalOption[];
  secretNames: string[];
}) {
  if (!connections) return <QueryFallback error={error} what="the model connections" />;
  if (connections.length === 0)
    return (
      <section
        aria-labelledby="no-model-title"
        className="mb-6 rounded-lg border border-dashed border-slate-300 bg-white p-5"
      >
        <h2 id="no-model-title" className="text-base font-semibold text-slate-900">
          No model connection yet
        </h2>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">
          A run needs a model to talk to: any OpenAI-compatible chat-completions endpoint — OpenAI,
          OpenRouter, vLLM, LM Studio, or Ollama on this machine at{" "}
          <code className="font-mono">http://localhost:11434/v1</code>.
        </p>
        <div className="mt-4">
          <ModelConnectionForm secretNames={secretNames} />
        </div>
      </section>
    );
  return (
    <>
      {principals.length === 0 ? (
        <div className="mb-6">
          <EmptyState
            title="No principals yet"
            action={
              <Link href="/principals" className="text-sm font-medium text-indigo-700 underline">
                Create a principal
              </Link>
            }
          >
            A run acts as a principal and may use only the tools it is granted. Create one and grant it some
            tools first.
          </EmptyState>
        </div>
      ) : (
        <StartRunForm principals={principals} connections={connections} />
      )}
      <ModelConnections connections={connections} secretNames={secretNames} />
    </>
  );
}
