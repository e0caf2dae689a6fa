import { Badge } from "@/components/ui/badge";
import type { ReplicaSummary, ServerReplicaDto } from "@/lib/servers/types";

/**
 * "Ready on 2 of 3": said only where it adds something — more than one live replica, and they do
 * not all report the same state. With one replica, or replicas that agree, the state badge says it all.
 */
export function replicaSplit(replicas: readonly ServerReplicaDto[], summary: ReplicaSummary): string | null {
  const states = new Set(replicas.filter((replica) => replica.live).map((replica) => replica.state));
  if (summary.of < 2 || states.size < 2) return null;
  return `Ready on ${summary.ready} of ${summary.of}`;
}

export function ReplicaSplitBadge({
  replicas,
  summary,
  testId,
}: {
  replicas: readonly ServerReplicaDto[];
  summary: ReplicaSummary;
  testId?: string;
}) {
  const label = replicaSplit(replicas, summary);
  if (!label) return null;
  const others = replicas
    .filter((replica) => replica.live && replica.state !== "ready")
    .map((replica) => `${replica.id}: ${replica.state}`);
  return (
    <span data-testid={testId}>
      <Badge
        tone={summary.ready === 0 ? "red" : "amber"}
        title={`Each replica connects the server on its own. Not ready on ${others.join(", ")}.`}
      >
        {label}
      </Badge>
    </span>
  );
}
