import type { Database } from "@/lib/db/client";
import { literal, runPlainStatement } from "@/lib/db/plain-statement";
import { eventSchema, type RecordedEvent, type SwitchboardEvent } from "@/lib/events/event-types";
import { processEventHub } from "@/lib/events/record-event";
import { EVENT_CHANNEL } from "@/lib/events/relay";
import { type CallEventDetail, callRefOf } from "./call-events";
import type { CallRow, CallView } from "./call-view";
import { type NewCall, toCallValues } from "./record-call";

/**
 * The write that lets an allowed call run: the call, already `running`, and its `call.requested`
 * and `call.started` events — one statement, before the downstream server is asked, so a call that
 * ran is always on record (a crash leaves it `running`, never missing).
 *
 * Group commit: calls that arrive while a write is in flight are written together in the next one
 * (multi-row INSERTs in one statement). One caller pays one round trip; eight concurrent callers
 * share a few, instead of queueing eight on a single-threaded embedded database.
 */

/**
 * Writes queued entries in batches: one batch in flight at a time, everything queued meanwhile
 * goes in the next. A failed batch fails each of its entries. A batch starts once the requests that
 * arrived together have been read (setImmediate), not at the first entry: on embedded PGlite a
 * write holds the only thread, so calls could not join a batch once it has started.
 */
class GroupCommit<In, Out> {
  private queue: Array<{ entry: In; resolve: (out: Out) => void; reject: (error: unknown) => void }> = [];
  private writing = false;
  private startingSoon = false;

  constructor(private readonly write: (batch: In[]) => Promise<Out[]>) {}

  add(entry: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    // The batch in flight is followed by everything queued; a batch about to start takes this too.
    if (this.writing || this.startingSoon) return;
    this.startingSoon = true;
    setImmediate(() => {
      this.startingSoon = false;
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          const outs = await this.write(batch.map((p) => p.entry));
          for (const [i, pending] of batch.entries()) pending.resolve(outs[i] as Out);
        } catch (error) {
          for (const pending of batch) pending.reject(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}

/** How a call ended, as finishCall computed it (already scrubbed and bounded). */
export type CallEnding = Pick<
  CallRow,
  "status" | "result" | "errorCode" | "errorMessage" | "durationMs" | "finishedAt" | "sealedArguments"
>;
export type FinishedCall = { view: CallView; ending: CallEnding; event: CallEventDetail };

type JournalEntry = { kind: "start"; call: NewCall } | { kind: "finish"; finished: FinishedCall };
const journals = new WeakMap<Database, GroupCommit<JournalEntry, CallView | undefined>>();

/**
 * One journal per database: starts and endings queued together go in one statement (one commit),
 * which is most of what a write costs on PGlite.
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

/** A part of a journal statement: its CTEs, the events it wrote, and what its entries resolve to. */
type JournalPart<Out> = {
  ctes: string[];
  /** A SELECT of (id, tenant_id, call_id, created_at) over this part's written events. */
  written: string;
  settle: (rows: EventRow[]) => { outs: Out[]; recorded: RecordedEvent[] };
};

async function writeJournal(db: Database, batch: JournalEntry[]): Promise<Array<CallView | undefined>> {
  const starts = batch.flatMap((entry) => (entry.kind === "start" ? [entry.call] : []));
  const finishes = batch.flatMap((entry) => (entry.kind === "finish" ? [entry.finished] : []));
  const parts = [
    starts.length > 0 ? { name: "start", part: runningCallsPart(starts) } : undefined,
    finishes.length > 0 ? { name: "finish", part: finishedCallsPart(finishes) } : undefined,
  ].flatMap((part) => (part ? [part] : []));
  const rows = await runPlainStatement<EventRow & { part: string }>(
    db,
    `with ${parts.flatMap(({ part }) => part.ctes).join(",\n")}
    select part, id, call_id, created_at, ${notifyColumn(db)} as notified
    from (${parts.map(({ name, part }) => `select ${literal(name)} as part, * from (${part.written}) ${name}_events`).join(" union all ")}) written
    order by id`,
  );
  const settled = new Map(
    parts.map(({ name, part }) => [name, part.settle(rows.filter((row) => row.part === name))]),
  );
  processEventHub.publishRecorded(
    db,
    [...settled.values()].flatMap(({ recorded }) => recorded).sort((a, b) => a.id - b.id),
  );
  const outs = { start: settled.get("start")?.outs ?? [], finish: settled.get("finish")?.outs ?? [] };
  let nextStart = 0;
  let nextFinish = 0;
  return batch.map((entry) => (entry.kind === "start" ? outs.start[nextStart++] : outs.finish[nextFinish++]));
}

function runningCallsPart(batch: NewCall[]): JournalPart<CallView> {
  const startedAt = new Date();
  const rows = batch.map((call) => ({ ...toCallValues(call), status: "running" as const, startedAt }));
  const views: CallView[] = batch.map((call, i) => ({
    call: { ...emptyCallRow, ...rows[i] } as CallRow,
    serverName: call.target?.serverName ?? null,
    requesterName: call.requester.name,
    approval: null,
    deciderUserName: null,
    deciderKeyName: null,
  }));
  const payloads = views.flatMap((view) => {
    const ref = callRefOf(view);
    return (["call.requested", "call.started"] as const).map((type) =>
      eventSchema.parse({ ...ref, type } satisfies SwitchboardEvent),
    );
  });
  const eventRows = payloads.map((event, i) => {
    const { type, ...data } = event;
    const view = views[Math.floor(i / 2)] as CallView;
    return { tenantId: view.call.tenantId, type, serverId: view.call.serverId, callId: view.call.id, data };
  });

  // Plain text with literal values rather than the query builder and parameters: this statement is
  // on every allowed call's path, and building it from the table definitions cost more than running
  // it; parameters cost PGlite five more trips into its engine (lib/db/plain-statement.ts).
  const callValues = views
    .map(({ call }) =>
      row(
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
        "'running'",
        timestamptz(call.createdAt),
        timestamptz(startedAt),
      ),
    )
    .join(", ");
  const eventValues = eventRows
    .map((event) =>
      row(
        literal(event.tenantId),
        literal(event.type),
        literal(event.serverId),
        literal(event.callId),
        jsonb(event.data),
      ),
    )
    .join(", ");
  return {
    ctes: [
      `inserted_calls as (
        insert into calls (id, tenant_id, requester_kind, requester_id, server_id, tool_name, gateway_name,
          effect, arguments, sealed_arguments, status, created_at, started_at)
        values ${callValues}
        returning id
      )`,
      `started_events as (
        insert into events (tenant_id, type, server_id, call_id, data) values ${eventValues}
        returning id, tenant_id, call_id, created_at
      )`,
    ],
    written: "select id, tenant_id, call_id, created_at from started_events",
    settle: (written) => ({
      outs: views,
      // Ids are handed out in VALUES order within the statement: the i-th id is the i-th event.
      recorded: written.map((row, i) => ({
        ...(payloads[i] as SwitchboardEvent),
        id: Number(row.id),
        tenantId: eventRows[i]?.tenantId ?? "",
        createdAt: new Date(row.created_at).toISOString(),
      })),
    }),
  };
}

function finishedCallsPart(batch: FinishedCall[]): JournalPart<CallView | undefined> {
  const payloads = batch.map(({ view, event }) =>
    eventSchema.parse({ ...callRefOf(view), ...event } as SwitchboardEvent),
  );
  const endings = batch
    .map(({ view, ending }) =>
      row(
        `${literal(view.call.id)}::text`,
        `${literal(ending.status)}::text`,
        ending.result === null ? "null::jsonb" : jsonb(ending.result),
        `${literal(ending.errorCode)}::text`,
        `${literal(ending.errorMessage)}::text`,
        `${literal(ending.durationMs)}::int`,
        ending.finishedAt ? timestamptz(ending.finishedAt) : "null::timestamptz",
      ),
    )
    .join(", ");
  const eventValues = payloads
    .map((event, i) => {
      const { type, ...data } = event;
      const { call } = (batch[i] as FinishedCall).view;
      return row(
        `${literal(call.tenantId)}::text`,
        `${literal(type)}::text`,
        `${literal(call.serverId)}::text`,
        `${literal(call.id)}::text`,
        jsonb(data),
      );
    })
    .join(", ");
  return {
    // Only calls still running are ended, and only their events are written: ending a call that
    // someone else ended first (a cancellation) writes nothing.
    ctes: [
      `ending (id, status, result, error_code, error_message, duration_ms, finished_at) as (values ${endings})`,
      `updated as (
        update calls set status = ending.status, result = ending.result, error_code = ending.error_code,
          error_message = ending.error_message, duration_ms = ending.duration_ms,
          finished_at = ending.finished_at, sealed_arguments = null
        from ending where calls.id = ending.id and calls.status = 'running'
        returning calls.id as id
      )`,
      `ending_event (tenant_id, type, server_id, call_id, data) as (values ${eventValues})`,
      `ended_events as (
        insert into events (tenant_id, type, server_id, call_id, data)
        select ending_event.tenant_id, ending_event.type, ending_event.server_id, ending_event.call_id, ending_event.data
        from ending_event join updated on updated.id = ending_event.call_id
        returning id, tenant_id, call_id, created_at
      )`,
    ],
    written: "select id, tenant_id, call_id, created_at from ended_events",
    settle: (written) => {
      const byCall = new Map(written.map((row) => [row.call_id, row]));
      const recorded: RecordedEvent[] = [];
      const outs = batch.map(({ view, ending }, i) => {
        const row = byCall.get(view.call.id);
        if (!row) return undefined;
        recorded.push({
          ...(payloads[i] as SwitchboardEvent),
          id: Number(row.id),
          tenantId: view.call.tenantId,
          createdAt: new Date(row.created_at).toISOString(),
        });
        return { ...view, call: { ...view.call, ...ending } };
      });
      return { outs, recorded };
    },
  };
}

type EventRow = { id: number | string; call_id: string; created_at: string | Date };
/** Rendering values for the plain statements: every value goes through `literal`. */
const row = (...rendered: string[]) => `(${rendered.join(", ")})`;
const jsonb = (value: unknown) => `${literal(JSON.stringify(value))}::jsonb`;
const timestamptz = (date: Date) => `${literal(date.toISOString())}::timestamptz`;
const notifyColumn = (db: Database) =>
  processEventHub.announcesOutsideTransactions(db)
    ? `pg_notify(${literal(EVENT_CHANNEL)}, json_build_object('id', id, 'tenantId', tenant_id)::text)`
    : "null";

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
