import type { RecordedEvent } from "@/lib/events/event-types";
import { subscribeEvents } from "@/lib/events/record-event";
import { processSingleton } from "@/lib/process-singleton";

/**
 * What the call path reads on every call but changes rarely — a principal's grants, the approval
 * policy, the tool behind a gateway name, the workspace's secret values, the principal behind an
 * API key — kept per process, so an allowed call costs no look-ups.
 *
 * Correctness comes from events, not from the clock: every change of these is recorded as an event
 * (`policy.changed`, `catalog.changed`, `server.*`), and every process drops the workspace's entries
 * when it sees one — at once for a change made here (events publish before the write returns), a
 * NOTIFY round trip later for one made by another process. The maximum age is only a safety net
 * for a process whose relay lost its LISTEN connection.
 *
 * An invalidation drops loads still in flight too, so an answer read before a change can never
 * outlive it. API keys are looked up before their workspace is known: they live in a namespace of
 * their own, dropped whenever any workspace revokes a key or deletes a principal.
 */

const MAX_AGE_MS = 30_000;

/**
 * One server's part of the catalog is kept longer: it only says what the gateway lists (the call
 * path looks a tool up on its own), events drop it, and a relay that reconnects replays what it
 * missed. Re-reading 10,000 tools every 30 s would cost a cold read of seconds twice a minute.
 */
export const CATALOG_PART_MAX_AGE_MS = 10 * 60_000;

const INVALIDATING = new Set<RecordedEvent["type"]>([
  "policy.changed",
  "catalog.changed",
  "server.registered",
  "server.updated",
  "server.deleted",
]);

/** The namespace of API key → principal answers (keyed by the key's hash). */
export const API_KEYS = "api-keys";

/**
 * The namespaces of a workspace's tool catalog as the gateway reads it (10,000 tools take a second
 * or more to read on PGlite), kept apart from the workspace's so that changes the catalog does not
 * depend on — grants, principals, keys, secrets, limits, the approval policy — keep it. Each server's
 * tools are a namespace of their own (lib/catalog/cached-catalog): a change of one server's catalog
 * or settings, or of one tool, drops that server's part and the whole put together from the parts;
 * a change of the gateway's naming (it renames across servers) drops every part.
 */
export const catalogNamespace = (tenantId: string) => `catalog:${tenantId}`;
export const serverCatalogNamespace = (tenantId: string, serverId: string) =>
  `${catalogNamespace(tenantId)}:${serverId}`;
const KEEPS_CATALOG = new Set(["grants", "principal", "api_key", "approval_policy", "secret", "limits"]);

/** What of a workspace's catalog an event may have changed: nothing, one server's part, or all. */
function catalogChangeOf(event: RecordedEvent): "none" | "all" | { serverId: string } {
  switch (event.type) {
    case "catalog.changed":
    case "server.registered":
    case "server.updated":
    case "server.deleted":
      return { serverId: event.serverId };
    case "policy.changed":
      if (KEEPS_CATALOG.has(event.subject)) return "none";
      return event.subject === "tool" && event.serverId ? { serverId: event.serverId } : "all";
    default:
      return "none";
  }
}

type Entry = { value: Promise<unknown>; storedAt: number };

class DecisionCache {
  private readonly namespaces = new Map<string, Map<string, Entry>>();

  constructor() {
    subscribeEvents((event) => {
      if (!INVALIDATING.has(event.type)) return;
      this.invalidate(event.tenantId);
      const catalogChange = catalogChangeOf(event);
      if (catalogChange !== "none") {
        const whole = catalogNamespace(event.tenantId);
        this.invalidate(whole);
        if (catalogChange === "all") this.invalidateUnder(`${whole}:`);
        else this.invalidate(serverCatalogNamespace(event.tenantId, catalogChange.serverId));
      }
      if (event.type === "policy.changed" && (event.subject === "api_key" || event.subject === "principal"))
        this.invalidate(API_KEYS);
    });
  }

  /**
   * The cached answer for `key` in the workspace, or `load()`'s (shared by concurrent callers).
   * A failed load is not kept, nor a miss (undefined): the names callers may ask for that do not
   * exist are unbounded, and would fill the cache until the next event dropped it.
   */
  get<T>(namespace: string, key: string, load: () => Promise<T>, maxAgeMs = MAX_AGE_MS): Promise<T> {
    let entries = this.namespaces.get(namespace);
    if (!entries) {
      entries = new Map();
      this.namespaces.set(namespace, entries);
    }
    const hit = entries.get(key);
    if (hit && Date.now() - hit.storedAt < maxAgeMs) return hit.value as Promise<T>;
    const entry: Entry = { value: load(), storedAt: Date.now() };
    entries.set(key, entry);
    const stored = entries;
    const forget = () => {
      if (stored.get(key) === entry) stored.delete(key);
    };
    entry.value.then((value) => value === undefined && forget(), forget);
    return entry.value as Promise<T>;
  }

  /** Drops a workspace's (or the API key namespace's) entries, loads in flight included. */
  invalidate(namespace: string): void {
    this.namespaces.delete(namespace);
  }

  /** Drops every namespace whose name starts with `prefix`. */
  private invalidateUnder(prefix: string): void {
    for (const namespace of this.namespaces.keys()) {
      if (namespace.startsWith(prefix)) this.namespaces.delete(namespace);
    }
  }
}

/** The process's one cache, on globalThis so every route bundle shares it (and its subscription). */
export const decisionCache: DecisionCache = processSingleton("DecisionCache", () => new DecisionCache());
