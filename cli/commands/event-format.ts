/** An event as the stream sends it (lib/events/event-types.ts): a type, its fields, id and time. */
export type EventWire = { type: string; id?: number | string; createdAt?: string; [field: string]: unknown };

const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value) : "";

/** One line per event for people: the subject first, then what changed. */
export function describeEvent(event: EventWire): string {
  const server = text(event.serverName);
  const requester = event.requester as { name?: string } | undefined;
  if (event.type.startsWith("call.")) {
    const details = [
      text(event.tool),
      requester?.name ? `by ${requester.name}` : "",
      text(event.reason) ? `— ${text(event.reason)}` : "",
      event.durationMs !== undefined && event.durationMs !== null ? `${text(event.durationMs)} ms` : "",
      event.isError === true ? "(tool reported an error)" : "",
      text(event.errorCode) ? `error ${text(event.errorCode)}` : "",
      text(event.callId) ? `[call ${text(event.callId)}]` : "",
    ];
    return details.filter(Boolean).join(" ");
  }
  switch (event.type) {
    case "server.state_changed":
      return `${server} ${text(event.from)} → ${text(event.to)}${text(event.error) ? `: ${text(event.error)}` : ""}`;
    case "server.health_checked":
      return `${server} ${event.ok ? "healthy" : "unhealthy"}${event.latencyMs != null ? ` ${text(event.latencyMs)} ms` : ""}${text(event.error) ? `: ${text(event.error)}` : ""}`;
    case "server.process_exited":
      return `${server} exited (code ${text(event.exitCode) || "—"}, signal ${text(event.signal) || "—"})`;
    case "catalog.changed":
      return `${server} catalog changed`;
    case "catalog.problem":
      return `${server} ${Array.isArray(event.problems) ? event.problems.join("; ") : ""}`;
    case "gateway.session_evicted":
      return `a gateway session of ${text(event.principalName)} was closed to make room (${text(event.cap)} cap)`;
    default:
      return server;
  }
}
