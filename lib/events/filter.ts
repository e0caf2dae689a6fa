import { and, eq, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { events } from "@/db/schema";
import { parseOrThrow } from "@/lib/validation";
import { EVENT_TYPES } from "./event-names";
import type { RecordedEvent } from "./event-types";

/**
 * Which events a reader wants. `server` matches a server's id or name; `types` holds exact type
 * names and prefixes ending in "." (`call.` = every call event).
 */
export type EventFilter = { server?: string; call?: string; types?: string[] };

const knownType = (value: string) =>
  value.endsWith(".")
    ? EVENT_TYPES.some((type) => type.startsWith(value))
    : (EVENT_TYPES as readonly string[]).includes(value);

const typeList = z
  .string()
  .trim()
  .max(500, { error: "At most 500 characters." })
  .transform((value) =>
    value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)
      // "call.*" reads naturally too; it means the prefix "call.".
      .map((part) => (part.endsWith(".*") ? part.slice(0, -1) : part)),
  )
  .refine((types) => types.length <= 20, { error: "At most 20 types." })
  .refine((types) => types.every(knownType), {
    error: `Unknown event type. Use a type such as call.approved, or a prefix such as call. (types: ${EVENT_TYPES.join(", ")}).`,
  });

export const eventFilterSchema = z.object({
  server: z.string().trim().min(1).max(200).optional(),
  call: z.string().trim().min(1).max(200).optional(),
  type: typeList.optional(),
});

/** Reads `?server=&call=&type=` (type may list several, comma-separated). */
export function parseEventFilter(params: URLSearchParams): EventFilter {
  const parsed = parseOrThrow(
    eventFilterSchema,
    {
      server: params.get("server") ?? undefined,
      call: params.get("call") ?? undefined,
      type: params.get("type") ?? undefined,
    },
    "The event filter",
  );
  return {
    ...(parsed.server ? { server: parsed.server } : {}),
    ...(parsed.call ? { call: parsed.call } : {}),
    ...(parsed.type?.length ? { types: parsed.type } : {}),
  };
}

const typeMatches = (type: string, wanted: string) =>
  wanted.endsWith(".") ? type.startsWith(wanted) : type === wanted;

/** The live side of the filter (the table side is filterCondition; both must agree). */
export function matchesFilter(event: RecordedEvent, filter: EventFilter): boolean {
  if (filter.server !== undefined) {
    const ref = event as { serverId?: string | null; serverName?: string | null };
    if (ref.serverId !== filter.server && ref.serverName !== filter.server) return false;
  }
  if (filter.call !== undefined && (event as { callId?: string }).callId !== filter.call) return false;
  if (filter.types && !filter.types.some((wanted) => typeMatches(event.type, wanted))) return false;
  return true;
}

/** The table side of the filter, for one workspace. */
export function filterCondition(tenantId: string, filter: EventFilter): SQL {
  const conditions: SQL[] = [eq(events.tenantId, tenantId)];
  if (filter.server !== undefined) {
    const byName = sql`${events.data}->>'serverName' = ${filter.server}`;
    conditions.push(or(eq(events.serverId, filter.server), byName) as SQL);
  }
  if (filter.call !== undefined) conditions.push(eq(events.callId, filter.call));
  if (filter.types) {
    const byType = filter.types.map((wanted) =>
      wanted.endsWith(".") ? sql`starts_with(${events.type}, ${wanted})` : eq(events.type, wanted),
    );
    conditions.push(or(...byType) as SQL);
  }
  return and(...conditions) as SQL;
}
