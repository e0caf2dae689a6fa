/**
 * One value per process, whichever copy of a module asks. Next.js bundles a module once per entry
 * that imports it (instrumentation, each route) and dev reloads evaluate it again, so state that
 * must be shared — the event hub, the connection pool's helpers, caches — lives on globalThis,
 * under `__switchboard<name>`.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as Record<string, unknown>;
  const key = `__switchboard${name}`;
  if (!(key in store)) store[key] = create();
  return store[key] as T;
}
