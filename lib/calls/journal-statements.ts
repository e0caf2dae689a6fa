import type { Database } from "@/lib/db/client";
import { type BoundStatement, literal, type StatementTemplate } from "@/lib/db/plain-statement";
import { eventSchema, type RecordedEvent, type SwitchboardEvent } from "@/lib/events/event-types";
import { processEventHub } from "@/lib/events/record-event";
import { EVENT_CHANNEL } from "@/lib/events/relay";
import { type CallEventDetail, callRefOf } from "./call-events";
import type { CallRow, CallView } from "./call-view";
import { type NewCall, toCallValues } from "./record-call";

/**
 * The call journal's SQL (lib/calls/call-journal.ts writes it): the three statements — a start, a
 * whole call, an ending — and, for each entry, its arguments and what its rows resolve to.
 */

/** How a call ended, as finishCall computed it (already scrubbed and bounded). */
export type CallEnding = Pick<
  CallRow,
  "status" | "result" | "errorCode" | "errorMessage" | "durationMs" | "finishedAt" | "sealedArguments"
>;
export type FinishedCall = { view: CallView; ending: CallEnding; event: CallEventDetail };

/** What a start writes: its statement's arguments (unrendered) and its two events. */
export type StartRecord = { view: CallView; values: Array<string | null>; payloads: SwitchboardEvent[] };

/**
 * The journal's statements. Every value is cast, so the statement can be prepared without
 * knowing its arguments' types; the NOTIFY column only where another process could listen.
 */
export function journalTemplates(db: Database): Record<"start" | "whole" | "finish", StatementTemplate> {
  const notifies = processEventHub.announcesOutsideTransactions(db);
  const notified = notifies
    ? `pg_notify(${literal(EVENT_CHANNEL)}, json_build_object('id', id, 'tenantId', tenant_id)::text)`
    : "null";
  const suffix = notifies ? "notify" : "quiet";
  // A call's row and its first two events, from the start's arguments: $1 id, $2 tenant,
  // $3 requester kind, $4 requester id, $5 server, $6 tool, $7 gateway name, $8 effect,
  // $9 arguments, $10 sealed arguments, $11 created, $12 started, $13/$14 event data, $15 kind
  // (last, so an intent logged before it existed still lines up: see START_ARITY). The
  // journal's events carry the times they describe, by the application's clock like the call's
  // own times: a start written late (deferred) is not dated late.
  const callColumns = `id, tenant_id, requester_kind, requester_id, server_id, tool_name, gateway_name,
    effect, arguments, sealed_arguments, created_at, started_at, kind`;
  const callValues = `$1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text,
    $9::jsonb, $10::text, $11::timestamptz, $12::timestamptz, $15::text`;
  const startEvents = `($2::text, 'call.requested', $5::text, $1::text, $13::jsonb, $11::timestamptz),
    ($2::text, 'call.started', $5::text, $1::text, $14::jsonb, $12::timestamptz)`;
  const insertCall = (columns: string, values: string, moreEvents = "") => `with inserted_call as (
      insert into calls (${callColumns}, ${columns}) values (${callValues}, ${values})
      returning id
    ), inserted as (
      insert into events (tenant_id, type, server_id, call_id, data, created_at)
      values ${startEvents}${moreEvents}
      returning id, tenant_id, created_at
    )
    select id, created_at, ${notified} as notified from inserted order by id`;
  return {
    start: { name: `journal_start_v2_${suffix}`, text: insertCall("status", "'running'") },
    // Then the ending: $16 status, $17 result, $18 error code, $19 error message, $20 duration,
    // $21 finished, $22 event type, $23 event data.
    whole: {
      name: `journal_whole_v2_${suffix}`,
      text: insertCall(
        "status, result, error_code, error_message, duration_ms, finished_at",
        "$16::text, $17::jsonb, $18::text, $19::text, $20::int, $21::timestamptz",
        ", ($2::text, $22::text, $5::text, $1::text, $23::jsonb, $21::timestamptz)",
      ),
    },
    // $1 id, $2 status, $3 result, $4 error code, $5 error message, $6 duration, $7 finished,
    // $8 event type, $9 event data. Only a call still running is ended, and only then is its event
    // written: ending a call someone else ended first (a cancellation) writes nothing.
    finish: {
      name: `journal_finish_${suffix}`,
      text: `with updated as (
        update calls set status = $2::text, result = $3::jsonb, error_code = $4::text,
          error_message = $5::text, duration_ms = $6::int, finished_at = $7::timestamptz,
          sealed_arguments = null
        where id = $1::text and status = 'running'
        returning id, tenant_id, server_id
      ), inserted as (
        insert into events (tenant_id, type, server_id, call_id, data, created_at)
        select tenant_id, $8::text, server_id, id, $9::jsonb, coalesce($7::timestamptz, now()) from updated
        returning id, tenant_id, created_at
      )
      select id, created_at, ${notified} as notified from inserted`,
    },
  };
}

/** One entry's statement, and what it resolves to once written. */
export type Written = {
  statement: BoundStatement;
  settle: (rows: EventRow[]) => { out: CallView | undefined; recorded: RecordedEvent[] };
};

/** Where the sealed arguments are among a start's values (the start template's $10). */
const SEALED_ARGUMENTS = 9;
/** How many values a start has; an intent logged before `kind` existed has one fewer (a tool call). */
export const START_ARITY = 15;

/** A start's values as the start template takes them, from an intent logged by any version. */
export function startValuesOf(values: Array<string | null>): Array<string | null> {
  return values.length === START_ARITY - 1 ? [...values, "tool_call"] : values;
}

/** The running call's view and what its start writes, from the decided call. */
export function startRecordOf(newCall: NewCall): StartRecord {
  const startedAt = new Date();
  const view: CallView = {
    call: {
      ...emptyCallRow,
      ...toCallValues(newCall),
      status: "running",
      startedAt,
      startBy: null,
    } as CallRow,
    serverName: newCall.target?.serverName ?? null,
    requesterName: newCall.requester.name,
    approval: null,
    deciderUserName: null,
    deciderKeyName: null,
  };
  const { call } = view;
  const ref = callRefOf(view);
  const payloads = (["call.requested", "call.started"] as const).map((type) =>
    eventSchema.parse({ ...ref, type } satisfies SwitchboardEvent),
  );
  const values = [
    call.id,
    call.tenantId,
    call.requesterKind,
    call.requesterId,
    call.serverId,
    call.toolName,
    call.gatewayName,
    call.effect,
    JSON.stringify(call.arguments),
    call.sealedArguments,
    call.createdAt.toISOString(),
    startedAt.toISOString(),
    ...payloads.map(({ type: _type, ...data }) => JSON.stringify(data)),
    call.kind,
  ];
  return { view, values, payloads };
}

export function startOf({ view, values, payloads }: StartRecord, template: StatementTemplate): Written {
  return {
    statement: { template, args: values.map(literal) },
    // Rows in id order: requested, then started.
    settle: (rows) => ({
      out: view,
      recorded: rows.map((row, i) => recordedOf(payloads[i], view.call, row)),
    }),
  };
}

export function wholeOf(start: StartRecord, finished: FinishedCall, template: StatementTemplate): Written {
  const ending = endingOf(finished);
  // An ended call keeps no sealed arguments.
  const values = start.values.map((value, i) => (i === SEALED_ARGUMENTS ? null : value));
  const payloads = [...start.payloads, ending.payload];
  return {
    statement: { template, args: [...values.map(literal), ...ending.args] },
    settle: (rows) => ({
      out: ending.view,
      recorded: rows.map((row, i) => recordedOf(payloads[i], start.view.call, row)),
    }),
  };
}

export function finishOf(finished: FinishedCall, template: StatementTemplate): Written {
  const ending = endingOf(finished);
  return {
    statement: { template, args: [literal(finished.view.call.id), ...ending.args] },
    settle: ([row]) =>
      row
        ? { out: ending.view, recorded: [recordedOf(ending.payload, finished.view.call, row)] }
        : { out: undefined, recorded: [] },
  };
}

/** An ending's arguments (status … event data), its event and the ended call's view. */
function endingOf({ view, ending, event }: FinishedCall) {
  const payload = eventSchema.parse({ ...callRefOf(view), ...event } as SwitchboardEvent);
  const { type, ...data } = payload;
  return {
    payload,
    view: { ...view, call: { ...view.call, ...ending } },
    args: [
      literal(ending.status),
      ending.result === null ? "null" : jsonb(ending.result),
      literal(ending.errorCode),
      literal(ending.errorMessage),
      literal(ending.durationMs),
      ending.finishedAt ? timestamptz(ending.finishedAt) : "null",
      literal(type),
      jsonb(data),
    ],
  };
}

function recordedOf(payload: SwitchboardEvent | undefined, call: CallRow, row: EventRow): RecordedEvent {
  return {
    ...(payload as SwitchboardEvent),
    id: Number(row.id),
    tenantId: call.tenantId,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export type EventRow = { id: number | string; created_at: string | Date };
/** Arguments rendered as literals (lib/db/plain-statement.ts). */
const jsonb = (value: unknown) => literal(JSON.stringify(value));

const timestamptz = (date: Date) => literal(date.toISOString());

/** Columns the database would default, for the in-memory view of a row written without RETURNING. */
const emptyCallRow: Omit<
  CallRow,
  | "id"
  | "tenantId"
  | "requesterKind"
  | "requesterId"
  | "kind"
  | "toolName"
  | "gatewayName"
  | "effect"
  | "arguments"
  | "status"
  | "createdAt"
> = {
  serverId: null,
  sealedArguments: null,
  requestedArguments: null,
  idempotencyKey: null,
  result: null,
  errorCode: null,
  errorMessage: null,
  durationMs: null,
  startedAt: null,
  finishedAt: null,
  // Set by the database (the connection's name); not needed in memory.
  runner: null,
  startBy: null,
  // A call an allow rule let through is recorded by recordCall, never by the journal's start.
  allowedByRule: null,
};
