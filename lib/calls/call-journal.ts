import type { Database } from "@/lib/db/client";
import {
  type BoundStatement,
  literal,
  runStatements,
  type StatementTemplate,
} from "@/lib/db/plain-statement";
import { eventSchema, type RecordedEvent, type SwitchboardEvent } from "@/lib/events/event-types";
import { processEventHub } from "@/lib/events/record-event";
import { EVENT_CHANNEL } from "@/lib/events/relay";
import { type CallEventDetail, callRefOf } from "./call-events";
import type { CallRow, CallView } from "./call-view";
import { GroupCommit } from "./group-commit";
import { type NewCall, toCallValues } from "./record-call";

/**
 * The write that lets an allowed call run: the call, already `running`, and its `call.requested`
 * and `call.started` events — one statement, before the downstream server is asked, so a call that
 * ran is always on record (a crash leaves it `running`, never missing).
 *
 * Group commit: calls that arrive while a write is in flight are written together in the next one
 * (their statements in one round trip and one transaction, lib/db/plain-statement.ts), and so are
 * the endings of calls answered meanwhile. One caller pays one round trip; eight concurrent callers
 * share a few, instead of queueing eight on a single-threaded embedded database.
 */

/** How a call ended, as finishCall computed it (already scrubbed and bounded). */
export type CallEnding = Pick<
  CallRow,
  "status" | "result" | "errorCode" | "errorMessage" | "durationMs" | "finishedAt" | "sealedArguments"
>;
export type FinishedCall = { view: CallView; ending: CallEnding; event: CallEventDetail };

type JournalEntry = { kind: "start"; call: NewCall } | { kind: "finish"; finished: FinishedCall };
const journals = new WeakMap<Database, GroupCommit<JournalEntry, CallView | undefined>>();

/**
 * One journal per database: starts and endings queued together go in one round trip and one
 * transaction (lib/db/plain-statement.ts).
 */
function journalOf(db: Database): GroupCommit<JournalEntry, CallView | undefined> {
  let journal = journals.get(db);
  if (!journal) {
    journal = new GroupCommit((batch) => writeJournal(db, batch));
    journals.set(db, journal);
  }
  return journal;
}

/** Records an allowed call as running (see above); resolves once the write has committed. */
export async function recordRunningCall(db: Database, call: NewCall): Promise<CallView> {
  return (await journalOf(db).add({ kind: "start", call })) as CallView;
}

/**
 * Records how a running call ended, with its event (batched like the starts, and with them).
 * Resolves to the finished view, or undefined when the call was no longer running (someone else
 * ended it first): then nothing was written. A caller answered before this (the gateway) has its
 * ending written right after its answer went out, in the time its client takes to send the next.
 */
export function recordFinishedCall(db: Database, finished: FinishedCall): Promise<CallView | undefined> {
  return journalOf(db).add({ kind: "finish", finished });
}

/**
 * The journal's two statements. Every value is cast, so the statement can be prepared without
 * knowing its arguments' types; the NOTIFY column only where another process could listen.
 */
function journalTemplates(db: Database): { start: StatementTemplate; finish: StatementTemplate } {
  const notifies = processEventHub.announcesOutsideTransactions(db);
  const notified = notifies
    ? `pg_notify(${literal(EVENT_CHANNEL)}, json_build_object('id', id, 'tenantId', tenant_id)::text)`
    : "null";
  const suffix = notifies ? "notify" : "quiet";
  return {
    // $1 id, $2 tenant, $3 requester kind, $4 requester id, $5 server, $6 tool, $7 gateway name,
    // $8 effect, $9 arguments, $10 sealed arguments, $11 created, $12 started, $13/$14 event data
    start: {
      name: `journal_start_${suffix}`,
      text: `with inserted_call as (
        insert into calls (id, tenant_id, requester_kind, requester_id, server_id, tool_name, gateway_name,
          effect, arguments, sealed_arguments, status, created_at, started_at)
        values ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::jsonb,
          $10::text, 'running', $11::timestamptz, $12::timestamptz)
        returning id
      ), inserted as (
        insert into events (tenant_id, type, server_id, call_id, data)
        values ($2::text, 'call.requested', $5::text, $1::text, $13::jsonb),
          ($2::text, 'call.started', $5::text, $1::text, $14::jsonb)
        returning id, tenant_id, created_at
      )
      select id, created_at, ${notified} as notified from inserted order by id`,
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
        insert into events (tenant_id, type, server_id, call_id, data)
        select tenant_id, $8::text, server_id, id, $9::jsonb from updated
        returning id, tenant_id, created_at
      )
      select id, created_at, ${notified} as notified from inserted`,
    },
  };
}

async function writeJournal(db: Database, batch: JournalEntry[]): Promise<Array<CallView | undefined>> {
  // Per batch, not cached: whether anyone can listen changes when this process's relay starts.
  const template = journalTemplates(db);
  const written = batch.map((entry) =>
    entry.kind === "start" ? startOf(entry.call, template.start) : finishOf(entry.finished, template.finish),
  );
  const rows = await runStatements<EventRow>(
    db,
    written.map(({ statement }) => statement),
  );
  const settled = written.map((entry, i) => entry.settle(rows[i] ?? []));
  processEventHub.publishRecorded(
    db,
    settled.flatMap(({ recorded }) => recorded).sort((a, b) => a.id - b.id),
  );
  return settled.map(({ out }) => out);
}

/** One entry's statement, and what it resolves to once written. */
type Written = {
  statement: BoundStatement;
  settle: (rows: EventRow[]) => { out: CallView | undefined; recorded: RecordedEvent[] };
};

function startOf(newCall: NewCall, template: StatementTemplate): Written {
  const startedAt = new Date();
  const view: CallView = {
    call: { ...emptyCallRow, ...toCallValues(newCall), status: "running", startedAt } as CallRow,
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
  const dataOf = ({ type: _type, ...data }: SwitchboardEvent) => jsonb(data);
  return {
    statement: {
      template,
      args: [
        literal(call.id),
        literal(call.tenantId),
        literal(call.requesterKind),
        literal(call.requesterId),
        literal(call.serverId),
        literal(call.toolName),
        literal(call.gatewayName),
        literal(call.effect),
        jsonb(call.arguments),
        literal(call.sealedArguments),
        timestamptz(call.createdAt),
        timestamptz(startedAt),
        ...payloads.map(dataOf),
      ],
    },
    // Rows in id order: requested, then started.
    settle: (rows) => ({ out: view, recorded: rows.map((row, i) => recordedOf(payloads[i], call, row)) }),
  };
}

function finishOf({ view, ending, event }: FinishedCall, template: StatementTemplate): Written {
  const payload = eventSchema.parse({ ...callRefOf(view), ...event } as SwitchboardEvent);
  const { type, ...data } = payload;
  return {
    statement: {
      template,
      args: [
        literal(view.call.id),
        literal(ending.status),
        ending.result === null ? "null" : jsonb(ending.result),
        literal(ending.errorCode),
        literal(ending.errorMessage),
        literal(ending.durationMs),
        ending.finishedAt ? timestamptz(ending.finishedAt) : "null",
        literal(type),
        jsonb(data),
      ],
    },
    settle: ([row]) =>
      row
        ? {
            out: { ...view, call: { ...view.call, ...ending } },
            recorded: [recordedOf(payload, view.call, row)],
          }
        : { out: undefined, recorded: [] },
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

type EventRow = { id: number | string; created_at: string | Date };
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
  | "toolName"
  | "gatewayName"
  | "effect"
  | "arguments"
  | "status"
  | "createdAt"
> = {
  serverId: null,
  sealedArguments: null,
  idempotencyKey: null,
  result: null,
  errorCode: null,
  errorMessage: null,
  durationMs: null,
  startedAt: null,
  finishedAt: null,
};
