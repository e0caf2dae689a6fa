import { queryOptions } from "@tanstack/react-query";
import type { AgentRunDto, ModelConnectionDto } from "@/lib/agents/types";
import { fetchJson } from "@/lib/client/fetch-json";

export type { AgentRunDto, ModelConnectionDto };

// Everything of the Agent page under ["agent"]: one invalidation refreshes the list and an open run.
export const agentKeys = {
  all: ["agent"] as const,
  runs: () => [...agentKeys.all, "runs"] as const,
  run: (id: string) => [...agentKeys.all, "run", id] as const,
  connections: () => [...agentKeys.all, "model-connections"] as const,
};

/** Shared by the server-side prefetch and the client hooks (one key, one shape). */
export const agentRunsQuery = () =>
  queryOptions({
    queryKey: agentKeys.runs(),
    queryFn: () => fetchJson<{ runs: AgentRunDto[] }>("/api/v1/agent-runs").then((r) => r.runs),
  });

export const agentRunQuery = (id: string) =>
  queryOptions({
    queryKey: agentKeys.run(id),
    queryFn: () =>
      fetchJson<{ run: AgentRunDto }>(`/api/v1/agent-runs/${encodeURIComponent(id)}`).then((r) => r.run),
  });

export const modelConnectionsQuery = () =>
  queryOptions({
    queryKey: agentKeys.connections(),
    queryFn: () =>
      fetchJson<{ modelConnections: ModelConnectionDto[] }>("/api/v1/model-connections").then(
        (r) => r.modelConnections,
      ),
  });
