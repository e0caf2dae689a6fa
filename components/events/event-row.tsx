import Link from "next/link";
import { JsonView } from "@/components/calls/json-view";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import type { RecordedEvent } from "@/lib/events/event-types";
import { ActorChip } from "./actor-chip";
import { actorOf } from "./event-actor";
import { describeEvent, eventCategory } from "./event-summary";

const categoryIcons: Record<string, string> = { server: "⬢", catalog: "☰", call: "↗" };

/** One event as a line a person reads; its fields are a click away, as a table. */
export function EventRow({ event }: { event: RecordedEvent }) {
  const look = describeEvent(event);
  const category = eventCategory(event.type);
  const serverName = "serverName" in event ? event.serverName : null;
  const { tenantId: _tenant, ...fields } = event;
  return (
    <li data-testid="event-row" data-type={event.type} className="px-4 py-2.5 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="w-20 shrink-0 text-xs tabular-nums text-slate-500">
          <Time iso={event.createdAt} />
        </span>
        <span
          aria-hidden
          title={category}
          className="grid h-5 w-5 shrink-0 place-items-center rounded bg-slate-100 text-[11px] text-slate-600"
        >
          {categoryIcons[category] ?? "•"}
        </span>
        <Badge tone={look.tone} title={event.type}>
          {look.label}
        </Badge>
        {serverName ? <code className="font-mono text-xs text-slate-600">{serverName}</code> : null}
        <span className="min-w-0 flex-1 wrap-anywhere text-slate-800">{look.summary}</span>
        <ActorChip actor={actorOf(event)} />
        {look.callId ? (
          <Link href={`/calls/${look.callId}`} className="text-xs text-indigo-700 hover:underline">
            Open call
          </Link>
        ) : null}
      </div>
      <details className="ml-[8.5rem] mt-1 text-xs">
        <summary className="cursor-pointer text-slate-600 hover:text-slate-900">
          {event.type} · #{event.id}
        </summary>
        <div className="mt-2">
          <JsonView value={fields} label={`Event ${event.id}`} />
        </div>
      </details>
    </li>
  );
}
