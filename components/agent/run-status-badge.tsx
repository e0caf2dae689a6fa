import { Badge, type Tone } from "@/components/ui/badge";
import type { AgentRunStatus } from "@/lib/agents/types";

const looks: Record<AgentRunStatus, { label: string; tone: Tone; title: string }> = {
  running: { label: "Running", tone: "blue", title: "The run is asking the model or waiting on a tool" },
  succeeded: { label: "Succeeded", tone: "green", title: "The model gave its final answer" },
  failed: { label: "Failed", tone: "red", title: "The model or Switchboard could not go on" },
  cancelled: { label: "Cancelled", tone: "slate", title: "Stopped by an operator" },
  limit_reached: { label: "Limit reached", tone: "amber", title: "Stopped at one of its limits" },
};

/** Where an agent run stands: the one badge of the runs list and the run page. */
export function RunStatusBadge({ status }: { status: AgentRunStatus }) {
  const look = looks[status] ?? { label: status, tone: "neutral" as const, title: status };
  return (
    <Badge tone={look.tone} title={look.title}>
      <span
        aria-hidden
        className={`h-1.5 w-1.5 rounded-full bg-current ${status === "running" ? "animate-pulse" : ""}`}
      />
      {look.label}
    </Badge>
  );
}
