import type { Queryable } from "@/lib/db/client";
import type { RecordedEvent, SwitchboardEvent } from "@/lib/events/event-types";
import { recordEvent } from "@/lib/events/record-event";
import type { EffectClass } from "@/lib/policy/effects";
import { type CallView, requesterOf } from "./call-view";

/**
 * The call.* events, built from the call itself so every one carries the same identities —
 * never arguments or results (the event log is read by people who may not see those).
 */

type CallEvent = Extract<SwitchboardEvent, { type: `call.${string}` }>;
type RefKeys = "callId" | "kind" | "serverId" | "serverName" | "tool" | "effect" | "requester";
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type CallEventDetail = DistributiveOmit<CallEvent, RefKeys>;

export function callRefOf(view: CallView) {
  const requester = requesterOf(view);
  return {
    callId: view.call.id,
    kind: view.call.kind,
    serverId: view.call.serverId,
    serverName: view.serverName,
    tool: view.call.gatewayName,
    effect: view.call.effect as EffectClass,
    requester: { kind: view.call.requesterKind, id: requester.id, name: requester.name },
  };
}

export function recordCallEvent(
  db: Queryable,
  view: CallView,
  detail: CallEventDetail,
): Promise<RecordedEvent> {
  return recordEvent(db, {
    tenantId: view.call.tenantId,
    event: { ...callRefOf(view), ...detail } as SwitchboardEvent,
  });
}
