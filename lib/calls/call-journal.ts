import { inArray } from "drizzle-orm";
import { calls } from "@/db/schema";
import type { Database } from "@/lib/db/client";
import { literal, runStatements } from "@/lib/db/plain-statement";
import { processEventHub } from "@/lib/events/record-event";
import { log as serverLog } from "@/lib/observability/log";
import { processSingleton } from "@/lib/process-singleton";
import type { CallView } from "./call-view";
import { GroupCommit } from "./group-commit";
import { IntentLog } from "./intent-log";
import {
  type EventRow,
  type FinishedCall,
  finishOf,
  journalTemplates,
  type StartRecord,
  startOf,
  startRecordOf,
  startValuesOf,
  wholeOf,
} from "./journal-statements";
import type { NewCall } from "./record-call";

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
      serverLog.error({ callId }, `call ${callId} not written as running: ${(error as Error)?.message}`);
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
      serverLog.error(
        { callId: call.id },
        `intent log not written (${(error as Error)?.message}): call ${call.id} is written before it runs`,
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
      await runStatements(db, [{ template: start, args: startValuesOf(intent.values).map(literal) }]);
      written++;
    } catch (error) {
      serverLog.error(
        { callId: intent.callId },
        `call ${intent.callId} from the intent log not written: ${(error as Error).message}`,
      );
    }
  }
  log.clear();
  journal.intentLog = log;
  journal.startDeferMs = options.startDeferMs ?? START_DEFER_MS;
  return written;
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
    serverLog.error(`intent log not emptied: ${(error as Error).message}`);
  }
}
