import { Badge, type Tone } from "@/components/ui/badge";

const statuses: Record<string, { tone: Tone; label: string; title: string }> = {
  ready: { tone: "green", label: "Ready", title: "Connected and answering" },
  connecting: { tone: "blue", label: "Connecting", title: "Opening the connection" },
  degraded: { tone: "amber", label: "Degraded", title: "Connected, but the last health check failed" },
  "crash-loop": { tone: "red", label: "Crash loop", title: "Failing repeatedly; retrying slowly" },
  "needs-authorization": {
    tone: "amber",
    label: "Needs authorization",
    title: "No usable OAuth token: an admin must connect it (Connect on the server's page)",
  },
  disconnected: { tone: "red", label: "Disconnected", title: "Not connected" },
  disabled: { tone: "slate", label: "Disabled", title: "Switched off; Switchboard will not connect" },
  unknown: { tone: "neutral", label: "Not checked", title: "No connection attempt has been recorded yet" },
};

export function ServerStatusBadge({ status }: { status: string }) {
  const s = statuses[status] ?? { tone: "neutral" as const, label: status, title: status };
  return (
    <Badge tone={s.tone} title={s.title}>
      <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-current" />
      {s.label}
    </Badge>
  );
}

export const transportLabels: Record<string, string> = {
  stdio: "stdio",
  "streamable-http": "Streamable HTTP",
  sse: "SSE",
};
