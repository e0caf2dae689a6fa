import { and, asc, desc, gt, inArray, lt, lte, type SQL } from "drizzle-orm";
import { z } from "zod";
import { events } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/validation";
import type { RecordedEvent } from "./event-types";
import { type EventFilter, filterCondition, parseEventFilter } from "./filter";

type EventRow = typeof events.$inferSelect;

/** A stored row as the event it records (the payload lives in `data`, the identity in columns). */
export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    ...row.data,
    id: row.id,
    type: row.type,
    tenantId: row.tenantId,
    createdAt: row.createdAt.toISOString(),
  } as RecordedEvent;
}

export const MAX_PAGE = 200;

const cursor = z.coerce
  .number({ error: "Expected an event id (a whole number)." })
  .int({ error: "Expected an event id (a whole number)." })
  .min(0, { error: "Must be at least 0." })
  .max(Number.MAX_SAFE_INTEGER);

export const eventPageQuerySchema = z.object({
  before: cursor.optional().meta({ description: "Events older than this id." }),
  after: cursor
    .optional()
    .meta({ description: "Events newer than this id, oldest first (to follow the log)." }),
  limit: z.coerce
    .number({ error: "Expected a whole number." })
    .int({ error: "Expected a whole number." })
    .min(1, { error: "Must be at least 1." })
    .max(MAX_PAGE, { error: `Must be at most ${MAX_PAGE}.` })
    .default(50),
});

export type EventPageQuery = z.infer<typeof eventPageQuerySchema> & { filter: EventFilter };

/** `?before=&after=&limit=` plus the filter of GET /api/v1/events. */
export function parseEventPageQuery(params: URLSearchParams): EventPageQuery {
  const page = parseOrThrow(
    eventPageQuerySchema,
    {
      before: params.get("before") ?? undefined,
      after: params.get("after") ?? undefined,
      limit: params.get("limit") ?? undefined,
    },
    "The query",
  );
  return { ...page, filter: parseEventFilter(params) };
}

export type EventPage = {
  events: RecordedEvent[];
  /** More events exist in the direction of the page (older without `after`, newer with it). */
  hasMore: boolean;
  /** Ids for the next request: `before` pages further back, `after` continues forward. */
  cursor: { before: number | null; after: number | null };
};

/**
 * One page of a workspace's history. Without `after` the newest come first (paging back with
 * `before`); with `after` the oldest first, so a reader can follow the log forward.
 */
export async function listEvents(
  db: Queryable,
  params: { tenantId: string } & EventPageQuery,
): Promise<EventPage> {
  const conditions: SQL[] = [filterCondition(params.tenantId, params.filter)];
  if (params.before !== undefined) conditions.push(lt(events.id, params.before));
  if (params.after !== undefined) conditions.push(gt(events.id, params.after));
  const forward = params.after !== undefined;
  const rows = await db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(forward ? asc(events.id) : desc(events.id))
    .limit(params.limit + 1);
  const hasMore = rows.length > params.limit;
  const page = rows.slice(0, params.limit).map(toRecordedEvent);
  const ids = page.map((e) => e.id);
  return {
    events: page,
    hasMore,
    cursor: {
      before: ids.length ? Math.min(...ids) : (params.before ?? null),
      after: ids.length ? Math.max(...ids) : (params.after ?? null),
    },
  };
}

/**
 * A workspace's matching events after an id and up to another (the stable watermark: see
 * stable-feed.ts), oldest first: the SSE replay.
 */
export async function readEventsAfter(
  db: Queryable,
  params: { tenantId: string; filter: EventFilter; afterId: number; upTo: number; limit: number },
): Promise<RecordedEvent[]> {
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        filterCondition(params.tenantId, params.filter),
        gt(events.id, params.afterId),
        lte(events.id, params.upTo),
      ),
    )
    .orderBy(asc(events.id))
    .limit(params.limit);
  return rows.map(toRecordedEvent);
}

/** Events of every workspace with an id in (afterId, upTo], in id order: the stable feed's read. */
export async function readEventRange(
  db: Queryable,
  params: { afterId: number; upTo: number; limit: number },
): Promise<RecordedEvent[]> {
  const rows = await db
    .select()
    .from(events)
    .where(and(gt(events.id, params.afterId), lte(events.id, params.upTo)))
    .orderBy(asc(events.id))
    .limit(params.limit);
  return rows.map(toRecordedEvent);
}

/** Events of every workspace by id, in id order: the relay's fetch after a notification. */
export async function readEventsByIds(db: Queryable, ids: number[]): Promise<RecordedEvent[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(events).where(inArray(events.id, ids)).orderBy(asc(events.id));
  return rows.map(toRecordedEvent);
}

/** Events of every workspace after an id, in id order: the relay's catch-up. */
export async function readAllEventsAfter(db: Queryable, afterId: number, limit: number) {
  const rows = await db
    .select()
    .from(events)
    .where(gt(events.id, afterId))
    .orderBy(asc(events.id))
    .limit(limit);
  return rows.map(toRecordedEvent);
}
