"use client";

import { useReducer } from "react";
import { type EventStreamFilter, type EventStreamStatus, useEventStream } from "@/lib/client/event-stream";
import type { RecordedEvent } from "@/lib/events/event-types";

// Bounded, so a page left open for a day does not grow without end; older ones remain a "load older" away.
const MAX_LIVE = 500;

type State = { live: RecordedEvent[]; held: RecordedEvent[]; isPaused: boolean };
type Action = { kind: "event"; event: RecordedEvent } | { kind: "pause" } | { kind: "resume" };

function reduce(state: State, action: Action): State {
  switch (action.kind) {
    case "event":
      // While paused the list stays still for reading; new events wait, counted, until resume.
      return state.isPaused
        ? { ...state, held: [action.event, ...state.held].slice(0, MAX_LIVE) }
        : { ...state, live: [action.event, ...state.live].slice(0, MAX_LIVE) };
    case "pause":
      return { ...state, isPaused: true };
    case "resume":
      return { live: [...state.held, ...state.live].slice(0, MAX_LIVE), held: [], isPaused: false };
  }
}

/**
 * The live tail of the event stream, newest first, with pause/resume. The stream stays open while
 * paused (nothing is lost, and a dropped connection resumes from its Last-Event-ID either way).
 */
export function useLiveEvents(filter: EventStreamFilter): {
  live: RecordedEvent[];
  heldCount: number;
  isPaused: boolean;
  status: EventStreamStatus;
  pause: () => void;
  resume: () => void;
} {
  const [state, dispatch] = useReducer(reduce, { live: [], held: [], isPaused: false });
  const { status } = useEventStream(filter, (event) => dispatch({ kind: "event", event }));
  return {
    live: state.live,
    heldCount: state.held.length,
    isPaused: state.isPaused,
    status,
    pause: () => dispatch({ kind: "pause" }),
    resume: () => dispatch({ kind: "resume" }),
  };
}
