import type { RecordedEvent } from "@/lib/events/event-types";

/**
 * Who did what an event records, named as the audit log names them: a person, an API key (by its
 * name), an agent (a principal), or Switchboard itself. Null when the event does not say (recorded
 * before the actor was kept) — never a guess.
 */
export type EventActor = { kind: "person" | "key" | "agent" | "system"; name: string };

export const actorKindLabels: Record<EventActor["kind"], string> = {
  person: "person",
  key: "API key",
  agent: "agent",
  system: "Switchboard",
};

const SYSTEM: EventActor = { kind: "system", name: "Switchboard" };

/** call-view.ts names a key that decided an approval `API key "<name>"`. */
const decidingKey = /^API key "(.*)"$/s;

export function actorOf(event: RecordedEvent): EventActor | null {
  switch (event.type) {
    // What the pool and the runtime see happen on their own: no one asked for it.
    case "server.state_changed":
    case "server.process_exited":
    case "server.health_checked":
    case "server.disabled_by_policy":
    case "server.authorization_needed":
    case "catalog.changed":
    case "catalog.problem":
    case "gateway.session_evicted":
    case "elicitation.requested":
      return SYSTEM;
    case "call.approved":
    case "call.denied":
      // Denied with no decider: the grants or the rules refused it.
      return event.decidedBy === null ? SYSTEM : decider(event.decidedBy);
    case "elicitation.answered":
      // Its decidedBy names a person or a key alike, so only "no one" can be told apart.
      return event.decidedBy === null || event.decidedBy === "Switchboard" ? SYSTEM : null;
    default:
      break;
  }
  if ("requester" in event) {
    return { kind: event.requester.kind === "principal" ? "agent" : "person", name: event.requester.name };
  }
  if ("by" in event && event.by) {
    const { kind, id, name } = event.by;
    if (kind === "system") return SYSTEM;
    return { kind: kind === "operator" ? "person" : "key", name: name ?? id ?? "unknown" };
  }
  return null;
}

function decider(name: string): EventActor {
  const key = decidingKey.exec(name);
  return key ? { kind: "key", name: key[1] ?? name } : { kind: "person", name };
}
