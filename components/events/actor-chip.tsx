import { actorKindLabels, type EventActor } from "./event-actor";

const icons: Record<EventActor["kind"], string> = { person: "●", key: "⚿", agent: "◆", system: "⚙" };

/** "by Ada (person)": who did it, beside what happened. Nothing when the event does not say. */
export function ActorChip({ actor }: { actor: EventActor | null }) {
  if (!actor) return null;
  const kind = actorKindLabels[actor.kind];
  return (
    <span
      data-testid="event-actor"
      data-actor-kind={actor.kind}
      title={actor.kind === "system" ? "Switchboard did this on its own" : `${kind}: ${actor.name}`}
      className="inline-flex max-w-56 items-center gap-1 truncate text-xs text-slate-600"
    >
      <span aria-hidden className="text-[10px] text-slate-500">
        {icons[actor.kind]}
      </span>
      {actor.kind === "system" ? (
        <span>by Switchboard</span>
      ) : (
        <span className="truncate">
          by <span className="font-medium text-slate-800">{actor.name}</span>{" "}
          <span className="text-slate-500">({kind})</span>
        </span>
      )}
    </span>
  );
}
