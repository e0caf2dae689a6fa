import { processSingleton } from "@/lib/process-singleton";

/**
 * The calls this process has admitted to run and not yet ended, by principal and server: the
 * exact part of the calls-in-flight limits. A count and a hold happen in one synchronous step, so
 * two calls arriving together in one process can never both take the last slot. (The database's
 * `running` rows cannot give that: a check and the row it would count are apart by awaits, and on
 * embedded PGlite a fast call's row is written only when it ends.) Other processes' calls are
 * counted from the database (lib/limits/call-limits.ts).
 */

export type InFlightCall = { tenantId: string; requesterId: string | null; serverId: string | null };
export type InFlightScope = { tenantId: string; requesterId?: string; serverId?: string };

/** Call id → the call and how many holders (its request, then its run) keep it. */
const held = processSingleton(
  "InFlightCalls",
  () => new Map<string, { call: InFlightCall; holders: number }>(),
);

function matches(call: InFlightCall, scope: InFlightScope): boolean {
  return (
    call.tenantId === scope.tenantId &&
    (scope.requesterId === undefined || call.requesterId === scope.requesterId) &&
    (scope.serverId === undefined || call.serverId === scope.serverId)
  );
}

/** How many held calls fall in `scope`. */
export function countInFlight(scope: InFlightScope): number {
  let n = 0;
  for (const { call } of held.values()) if (matches(call, scope)) n++;
  return n;
}

/**
 * Holds the call in flight until the returned release is called (once; again does nothing). The
 * request that admitted a call and the run that executes it may both hold it: it counts once.
 */
export function holdInFlight(callId: string, call: InFlightCall): () => void {
  const entry = held.get(callId) ?? { call, holders: 0 };
  entry.holders++;
  held.set(callId, entry);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    entry.holders--;
    if (entry.holders === 0 && held.get(callId) === entry) held.delete(callId);
  };
}
