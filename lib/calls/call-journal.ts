import { inArray } from "drizzle-orm";
import { calls } from "@/db/schema";
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
import { processSingleton } from "@/lib/process-singleton";
import { type CallEventDetail, callRefOf } from "./call-events";
import type { CallRow, CallView } from "./call-view";
import { GroupCommit } from "./group-commit";
import { IntentLog } from "./intent-log";
import { type NewCall, toCallValues } from "./record-call";

/**
 * The record of an allowed call that runs at once: the call, `running`, with its `call.requested`
 * and `call.started` events, then its ending with the ending's event — so a call that ran is
 * always on record (a crash leaves it `running` or in the intent log, never missing).
 *
 * On a PostgreSQL server the start is written before the downstream server is asked. On embedded
 * PGlite every write holds the process's only thread (~0.5 ms a statement), so there the record
 * that precedes the run is a line in a local intent log (lib/calls/intent-log.ts), and the row
 * follows: with the ending, as one insert of the finished call, when the call ends within
 * START_DEFER_MS — most do — or as the start once it has run that long. (A PGlite in memory keeps
 * no log: a crash loses all of it anyway. A PGlite on disk whose log is not open, or could not be
 * appended to, writes the start first, as PostgreSQL does.) A read of calls writes deferred starts
 * at once and waits for what is queued (callOnRecord, callsOnRecord), so the call an answer names
 * can be read at once, with its ending, and a list shows every call that ran.
 *
 * Group commit: entries that arrive while a write is in flight are written together in the next
 * one (their statements in one round trip and one transaction, lib/db/plain-statement.ts). One
 * caller pays one round trip; eight concurrent callers share a few.
 */
const START_DEFER_MS = 50;

/** How a call ended, as finishCall computed it (already scrubbed and bounded). */
export type CallEnding = Pick<
  CallRow,
  "status" | "result" | "errorCode" | "errorMessage" | "durationMs" | "finishedAt" | "sealedArguments"
>;
export type FinishedCall = { view: CallView; ending: CallEnding; event: CallEventDetail };

/** What a start writes: its statement's arguments (unrendered) and its two events. */
type StartRecord = { view: CallView; values: Array<string | null>; payloads: SwitchboardEvent[] };

type JournalEntry =
  | { kind: "start"; start: StartRecord; logged: boolean }
  | { kind: "finish"; finished: FinishedCall }
  /** a deferred start and its ending, as one insert */
  | { kind: "whole"; start: StartRecord; finished: FinishedCall; logged: boolean };

class CallJournal {
  private readonly commits: GroupCommit<JournalEntry, CallView | undefined>;
  /** Each call's latest queued write, not yet committed. */
  private readonly queued = new Map<string, Promise<unknown>>();
  /** Set at start-up for a PGlite with a data folder (openCallIntents). */
  intentLog: IntentLog | undefined;
  /** How long a running call may be on record only in the intent log. */
  startDeferMs = START_DEFER_MS;
  private readonly deferred = new Map<
    string,
    { start: StartRecord; logged: boolean; timer: NodeJS.Timeout }
  >();

  constructor(private readonly db: Database) {
    this.commits = new GroupCommit((batch) => writeJournal(db, this, batch));
  }

  /**
   * Only on PGlite, and only where the intent log can stand in for the row: a PGlite in memory
   * (a crash loses everything anyway) or one whose log is open.
   */
  defersStarts(): boolean {
    const client = (this.db as unknown as { $client: { exec?: unknown; dataDir?: string } }).$client;
    return client.exec !== undefined && (this.intentLog !== undefined || client.dataDir === undefined);
  }

  add(entry: JournalEntry): Promise<CallView | undefined> {
    const written = this.commits.add(entry);
    // Batches are written in order: the latest write of a call settling means all of its have.
    const callId = entry.kind === "finish" ? entry.finished.view.call.id : entry.start.view.call.id;
    this.queued.set(callId, written);
    const forget = () => {
      if (this.queued.get(callId) === written) this.queued.delete(callId);
    };
    written.then(forget, forget);
    return written;
  }

  /** Throws, having deferred nothing, when the intent log cannot take the call. */
  deferStart(start: StartRecord): void {
    const callId = start.view.call.id;
    const logged = this.intentLog !== undefined;
    this.intentLog?.append({ callId, values: start.values });
    const timer = setTimeout(() => void this.writeDeferredStart(callId), this.startDeferMs);
    // Not a reason to keep the process alive: the intent log has it.
    timer.unref();
    this.deferred.set(callId, { start, logged, timer });
  }

  /** Writes the call's deferred start now (if it still is deferred); resolves once written. */
  async writeDeferredStart(callId: string): Promise<void> {
    const deferred = this.takeDeferred(callId);
    if (!deferred) return;
    await this.add({ kind: "start", ...deferred }).catch((error: unknown) => {
      // Logged: written as interrupted at the next start if not before. (In memory: lost with it.)
      console.error(`[switchboard] call ${callId} not written as running: ${(error as Error)?.message}`);
    });
  }

  /** Resolves once the call's row and ending are written, if they are waiting to be. */
  async onRecord(callId: string): Promise<void> {
    await this.writeDeferredStart(callId);
    await this.queued.get(callId)?.catch(() => {});
  }

  /** Resolves once every call this process has waiting is written (a list of calls is read). */
  async allOnRecord(): Promise<void> {
    // Each adds its start to `queued` before its first await.
    for (const callId of [...this.deferred.keys()]) void this.writeDeferredStart(callId);
    await Promise.all([...this.queued.values()].map((written) => written.catch(() => {})));
  }

  /** The deferred start of `callId`, no longer deferred; undefined when it was written already. */
  takeDeferred(callId: string): { start: StartRecord; logged: boolean } | undefined {
    const deferred = this.deferred.get(callId);
    if (!deferred) return undefined;
    clearTimeout(deferred.timer);
    this.deferred.delete(callId);
    return deferred;
  }
}

// Per database, per process: the copy of this module that opens the intent log at start-up is not
// the one a route handler imports.
const journals = processSingleton("CallJournals", () => new WeakMap<Database, CallJournal>());

function journalOf(db: Database): CallJournal {
  let journal = journals.get(db);
  if (!journal) {
    journal = new CallJournal(db);
    journals.set(db, journal);
  }
  return journal;
}

/**
 * Records an allowed call as running (see above). Resolves once the call is on record: its start
 * committed, or (PGlite on disk) its intent logged; on PGlite in memory, with its start deferred.
 */
export async function recordRunningCall(db: Database, call: NewCall): Promise<CallView> {
  const journal = journalOf(db);
  const start = startRecordOf(call);
  if (journal.defersStarts()) {
    try {
      journal.deferStart(start);
      return start.view;
    } catch (error) {
      console.error(
        `[switchboard] intent log not written (${(error as Error)?.message}): call ${call.id} is written before it runs`,
      );
    }
  }
  return (await journal.add({ kind: "start", start, logged: false })) as CallView;
}

/** Resolves once what this process has waiting of the call is in the database (reads by id). */
export function callOnRecord(db: Database, callId: string): Promise<void> {
  return journals.get(db)?.onRecord(callId) ?? Promise.resolve();
}

/** Resolves once every call this process has waiting is in the database (lists of calls). */
export function callsOnRecord(db: Database): Promise<void> {
  return journals.get(db)?.allOnRecord() ?? Promise.resolve();
}

/**
 * Records how a running call ended, with its event (batched like the starts, and with them).
 * Resolves to the finished view, or undefined when the call was no longer running (someone else
 * ended it first; never for a deferred start, whose row nobody else knows): then nothing was
 * written. A caller answered before this (the gateway) has its
 * ending written right after its answer went out, in the time its client takes to send the next.
 */
export function recordFinishedCall(db: Database, finished: FinishedCall): Promise<CallView | undefined> {
  const journal = journalOf(db);
  const deferred = journal.takeDeferred(finished.view.call.id);
  if (deferred) return journal.add({ kind: "whole", ...deferred, finished });
  return journal.add({ kind: "finish", finished });
}

/**
 * Opens the intent log of a PGlite with a data folder (before the pool starts, so before any call
 * runs) and writes the calls a crash left in it as running; failInterruptedCalls then ends them.
 * Returns how many it wrote. A line that cannot be written is logged and dropped.
 */
export async function openCallIntents(
  db: Database,
  file: string,
  options: { startDeferMs?: number } = {},
): Promise<number> {
  const journal = journalOf(db);
  // Opened once per database: again, it would take this run's own calls for leftovers.
  if (journal.intentLog) return 0;
  const { log, leftovers } = IntentLog.open(file);
  const known = new Set<string>();
  for (let i = 0; i < leftovers.length; i += 1000) {
    const ids = leftovers.slice(i, i + 1000).map((intent) => intent.callId);
    for (const row of await db.select({ id: calls.id }).from(calls).where(inArray(calls.id, ids)))
      known.add(row.id);
  }
  const { start } = journalTemplates(db);
  let written = 0;
  for (const intent of leftovers) {
    if (known.has(intent.callId)) continue;
    known.add(intent.callId);
    try {
      await runStatements(db, [{ template: start, args: intent.values.map(literal) }]);
      written++;
    } catch (error) {
      console.error(
        `[switchboard] call ${intent.callId} from the intent log not written: ${(error as Error).message}`,
      );
    }
  }
  log.clear();
  journal.intentLog = log;
  journal.startDeferMs = options.startDeferMs ?? START_DEFER_MS;
  return written;
}

/**
 * The journal's statements. Every value is cast, so the statement can be prepared without
 * knowing its arguments' types; the NOTIFY column only where another process could listen.
 */
function journalTemplates(db: Database): Record<"start" | "whole" | "finish", StatementTemplate> {
  const notifies = processEventHub.announcesOutsideTransactions(db);
  const notified = notifies
    ? `pg_notify(${literal(EVENT_CHANNEL)}, json_build_object('id', id, 'tenantId', tenant_id)::text)`
    : "null";
  const suffix = notifies ? "notify" : "quiet";
  // A call's row and its first two events, from the start's arguments: $1 id, $2 tenant,
  // $3 requester kind, $4 requester id, $5 server, $6 tool, $7 gateway name, $8 effect,
  // $9 arguments, $10 sealed arguments, $11 created, $12 started, $13/$14 event data. The
  // journal's events carry the times they describe, by the application's clock like the call's
  // own times: a start written late (deferred) is not dated late.
  const callColumns = `id, tenant_id, requester_kind, requester_id, server_id, tool_name, gateway_name,
    effect, arguments, sealed_arguments, created_at, started_at`;
  const callValues = `$1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text,
    $9::jsonb, $10::text, $11::timestamptz, $12::timestamptz`;
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
    start: { name: `journal_start_${suffix}`, text: insertCall("status", "'running'") },
    // Then the ending: $15 status, $16 result, $17 error code, $18 error message, $19 duration,
    // $20 finished, $21 event type, $22 event data.
    whole: {
      name: `journal_whole_${suffix}`,
      text: insertCall(
        "status, result, error_code, error_message, duration_ms, finished_at",
        "$15::text, $16::jsonb, $17::text, $18::text, $19::int, $20::timestamptz",
        ", ($2::text, $21::text, $5::text, $1::text, $22::jsonb, $20::timestamptz)",
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

async function writeJournal(
  db: Database,
  journal: CallJournal,
  batch: JournalEntry[],
): Promise<Array<CallView | undefined>> {
  // Per batch, not cached: whether anyone can listen changes when this process's relay starts.
  const template = journalTemplates(db);
  const written = batch.map((entry) =>
    entry.kind === "start"
      ? startOf(entry.start, template.start)
      : entry.kind === "whole"
        ? wholeOf(entry.start, entry.finished, template.whole)
        : finishOf(entry.finished, template.finish),
  );
  const rows = await runStatements<EventRow>(
    db,
    written.map(({ statement }) => statement),
  );
  forgetLogged(journal, batch);
  const settled = written.map((entry, i) => entry.settle(rows[i] ?? []));
  processEventHub.publishRecorded(
    db,
    settled.flatMap(({ recorded }) => recorded).sort((a, b) => a.id - b.id),
  );
  return settled.map(({ out }) => out);
}

/** The batch's logged calls are in the database: their lines may go. Committed already, so a
 * failure here is only logged (the lines stay, and are skipped as written at the next start). */
function forgetLogged(journal: CallJournal, batch: JournalEntry[]): void {
  try {
    journal.intentLog?.written(
      batch.flatMap((entry) => (entry.kind !== "finish" && entry.logged ? [entry.start.view.call.id] : [])),
    );
  } catch (error) {
    console.error(`[switchboard] intent log not emptied: ${(error as Error).message}`);
  }
}

/** One entry's statement, and what it resolves to once written. */
type Written = {
  statement: BoundStatement;
  settle: (rows: EventRow[]) => { out: CallView | undefined; recorded: RecordedEvent[] };
};

/** Where the sealed arguments are among a start's values (the start template's $10). */
const SEALED_ARGUMENTS = 9;

/** The running call's view and what its start writes, from the decided call. */
function startRecordOf(newCall: NewCall): StartRecord {
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
  ];
  return { view, values, payloads };
}

function startOf({ view, values, payloads }: StartRecord, template: StatementTemplate): Written {
  return {
    statement: { template, args: values.map(literal) },
    // Rows in id order: requested, then started.
    settle: (rows) => ({
      out: view,
      recorded: rows.map((row, i) => recordedOf(payloads[i], view.call, row)),
    }),
  };
}

function wholeOf(start: StartRecord, finished: FinishedCall, template: StatementTemplate): Written {
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

function finishOf(finished: FinishedCall, template: StatementTemplate): Written {
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
  // Set by the database (the connection's name); not needed in memory.
  runner: null,
};
