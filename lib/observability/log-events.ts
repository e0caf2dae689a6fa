import "server-only";
import type { RecordedEvent } from "@/lib/events/event-types";
import { log } from "./log";

/**
 * One debug line per event this process records (the hub calls it once per event, where it is
 * stored — not where it is relayed, so a cluster logs each event once). Names, ids and outcomes
 * only: events never carry arguments or results, and no field of `data` is copied wholesale.
 */
export function logRecordedEvent(event: RecordedEvent): void {
  if (!log.isLevelEnabled("debug")) return;
  const fields: Record<string, unknown> = { event: event.type, eventId: event.id, tenantId: event.tenantId };
  if ("callId" in event) fields.callId = event.callId;
  if ("serverId" in event && event.serverId) fields.serverId = event.serverId;
  if ("requester" in event && event.requester.kind === "principal") fields.principalId = event.requester.id;
  if ("tool" in event) fields.tool = event.tool;
  if ("durationMs" in event) fields.durationMs = event.durationMs;
  log.debug(fields, `event ${event.type}`);
}
