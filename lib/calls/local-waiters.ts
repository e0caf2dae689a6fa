import { processSingleton } from "@/lib/process-singleton";
import type { CallToolOptions } from "@/lib/upstream/pool";

/**
 * The callers waiting on this process for a call that needs approval, with their cancellation
 * signal and progress callback. Whoever runs the approved call on this process (the waiter itself
 * or the operator's approve request) passes them on, so a gateway client can still cancel and see
 * progress. A call run by another process cannot reach them: nothing but the database is shared.
 */
type WaiterOptions = Pick<CallToolOptions, "signal" | "onProgress">;

const waiters = processSingleton("CallWaiters", () => new Map<string, WaiterOptions>());

export function registerLocalWaiter(callId: string, options: WaiterOptions): () => void {
  if (!options.signal && !options.onProgress) return () => {};
  waiters.set(callId, options);
  return () => {
    if (waiters.get(callId) === options) waiters.delete(callId);
  };
}

export function localWaiterOf(callId: string): WaiterOptions {
  return waiters.get(callId) ?? {};
}
