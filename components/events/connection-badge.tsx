import { Badge } from "@/components/ui/badge";
import type { EventStreamStatus } from "@/lib/client/event-stream";

const looks: Record<
  EventStreamStatus,
  { tone: "green" | "amber" | "blue" | "slate"; label: string; title: string }
> = {
  open: {
    tone: "green",
    label: "Live",
    title: "Connected to the event stream: changes appear as they happen",
  },
  connecting: { tone: "blue", label: "Connecting…", title: "Opening the event stream" },
  reconnecting: {
    tone: "amber",
    label: "Reconnecting…",
    title: "The connection dropped; resuming from the last event received, so nothing is lost",
  },
  closed: { tone: "slate", label: "Offline", title: "Not connected to the event stream" },
};

/** Whether the page is following the live stream, announced politely when it changes. */
export function ConnectionBadge({ status }: { status: EventStreamStatus }) {
  const look = looks[status];
  return (
    <span role="status" aria-live="polite" data-testid="connection-state">
      <Badge tone={look.tone} title={look.title}>
        <span
          aria-hidden
          className={`h-1.5 w-1.5 rounded-full bg-current ${status === "open" ? "animate-pulse" : ""}`}
        />
        {look.label}
      </Badge>
    </span>
  );
}
