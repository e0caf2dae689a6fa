import { EventEmitter } from "node:events";
import { events } from "@/db/schema";
import type { Queryable } from "@/lib/db/client";
import { eventSchema, type RecordedEvent, type SwitchboardEvent } from "./event-types";

/** In-process fan-out; one per process (on globalThis so every route bundle shares it). */
const state = globalThis as typeof globalThis & { __switchboardEventBus?: EventEmitter };
state.__switchboardEventBus ??= new EventEmitter().setMaxListeners(0);
export const eventBus: EventEmitter = state.__switchboardEventBus;

/** Persists first (the id is the order), then publishes. */
export async function recordEvent(
  db: Queryable,
  params: { tenantId: string; event: SwitchboardEvent },
): Promise<RecordedEvent> {
  const event = eventSchema.parse(params.event);
  const { type, ...data } = event;
  const [row] = await db
    .insert(events)
    .values({
      tenantId: params.tenantId,
      type,
      serverId: "serverId" in event ? event.serverId : null,
      callId: "callId" in event ? event.callId : null,
      data,
    })
    .returning({ id: events.id, createdAt: events.createdAt });
  if (!row) throw new Error("The event was not recorded.");
  const recorded = {
    ...event,
    id: row.id,
    tenantId: params.tenantId,
    createdAt: row.createdAt.toISOString(),
  };
  eventBus.emit("event", recorded);
  return recorded;
}

/**
 * Every recorded event of this process (and, once cross-process delivery is on, of every process
 * sharing the database), in id order per publisher. Returns the unsubscribe function.
 */
export function subscribeEvents(listener: (event: RecordedEvent) => void): () => void {
  eventBus.on("event", listener);
  return () => eventBus.off("event", listener);
}
