/**
 * The registry announces configuration changes here; the process runtime listens and brings
 * the connection pool in line. Without a runtime (tests, scripts) nothing listens.
 */
export type ServerChange = { tenantId: string; serverId: string; kind: "upserted" | "deleted" };
type Listener = (change: ServerChange) => void;

const state = globalThis as typeof globalThis & { __switchboardServerListeners?: Set<Listener> };
state.__switchboardServerListeners ??= new Set();
const listeners = state.__switchboardServerListeners;

export function onServerChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceServerChange(change: ServerChange): void {
  for (const listener of listeners) {
    try {
      listener(change);
    } catch (error) {
      console.error("[switchboard] server change listener failed", error);
    }
  }
}
