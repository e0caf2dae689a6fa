/** What lib/calls offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */

export type { CallKind, CallStatus } from "@/db/schema";
export type { CallOutcome } from "./call-outcome";
export type { AgentCallStats, CallRates, CallStats, ServerCallStats } from "./call-stats";
export type { CallDto, CallSummary } from "./call-view";
export type { TimelineEntry } from "./read-calls";
