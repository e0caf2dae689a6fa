"use client";

import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import type { RecordedEvent } from "@/lib/events/event-types";
import { ActorChip } from "./actor-chip";
import { actorOf } from "./event-actor";
import type { EventItem } from "./event-groups";
import { EventRow } from "./event-row";
import { describeEvent } from "./event-summary";

type Group = Extract<EventItem, { kind: "group" }>;

/**
 * A run of repeats as one line — "× 40, last at …" — that opens to the events themselves. A
 * cycle (a crash loop's state → exit → state) reads as its steps, once.
 */
export function EventGroupRow({ group }: { group: Group }) {
  const [isOpen, setIsOpen] = useState(false);
  const listId = useId();
  const newest = group.events[0] as RecordedEvent;
  const oldest = group.events[group.events.length - 1] as RecordedEvent;
  // Oldest step first, as the loop ran; the most telling line of a round (the one with the error).
  const steps = dedupe([...group.cycle].reverse().map(describeEvent));
  const summary = steps.reduce((a, b) => (b.summary.length > a.summary.length ? b : a)).summary;
  const serverName = "serverName" in newest ? newest.serverName : null;
  return (
    <li data-testid="event-group" data-type={newest.type} className="bg-amber-50/30 px-4 py-2.5 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="w-20 shrink-0 text-xs tabular-nums text-slate-500">
          <Time iso={newest.createdAt} />
        </span>
        <span
          aria-hidden
          title="repeated"
          className="grid h-5 w-5 shrink-0 place-items-center rounded bg-amber-100 text-[11px] text-amber-800"
        >
          ⟳
        </span>
        <span className="flex flex-wrap items-center gap-1" data-testid="event-group-steps">
          {steps.map((look, index) => (
            <span key={look.label} className="inline-flex items-center gap-1">
              {index > 0 ? (
                <span className="text-xs text-slate-500">
                  <span aria-hidden>→</span>
                  <span className="sr-only">then</span>
                </span>
              ) : null}
              <Badge tone={look.tone}>{look.label}</Badge>
            </span>
          ))}
        </span>
        {serverName ? <code className="font-mono text-xs text-slate-600">{serverName}</code> : null}
        <span data-testid="event-group-count" className="text-sm font-semibold text-slate-900">
          × {group.repeats}
        </span>
        <span className="flex-1" />
        <ActorChip actor={actorOf(newest)} />
      </div>
      <p className="ml-[8.5rem] mt-1 wrap-anywhere text-slate-800">{summary}</p>
      <p className="ml-[8.5rem] mt-0.5 text-xs text-slate-600">
        {group.cycle.length > 1 ? `${group.cycle.length} events a round, ` : ""}last at{" "}
        <Time iso={newest.createdAt} />, first at <Time iso={oldest.createdAt} />
      </p>
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={listId}
        onClick={() => setIsOpen((open) => !open)}
        className="ml-[8.5rem] mt-1 rounded text-xs text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {isOpen ? "Hide" : "Show"} the {group.events.length} events
      </button>
      {isOpen ? (
        <ol
          id={listId}
          aria-label={`${group.events.length} repeated events`}
          className="ml-[8.5rem] mt-2 divide-y divide-slate-100 rounded border border-slate-200 bg-white"
        >
          {group.events.map((event) => (
            <EventRow key={event.id} event={event} />
          ))}
        </ol>
      ) : null}
    </li>
  );
}

function dedupe<T extends { label: string }>(looks: T[]): T[] {
  return looks.filter((look, index) => looks.findIndex((other) => other.label === look.label) === index);
}
