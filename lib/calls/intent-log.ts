import fs from "node:fs";
import { z } from "zod";
import { log } from "@/lib/observability/log";

/**
 * Where an allowed call is on record before it runs when its database row comes later (embedded
 * PGlite, see call-journal): one line per call, appended synchronously before the downstream
 * server is asked. Emptied whenever every call it names is in the database, and rewritten with only
 * the calls still missing there once it passes COMPACT_AT_BYTES (under unbroken load it is never
 * empty). A crash leaves the lines of calls not written yet; the next start writes those calls from
 * them. Lines survive a crash of the process as the database's own writes do (written through to
 * the file system).
 */

/** A call's start: its id and its start statement's arguments (lib/calls/call-journal.ts). */
const intentSchema = z.object({ callId: z.string().min(1), values: z.array(z.string().nullable()) });
export type CallIntent = z.infer<typeof intentSchema>;

const COMPACT_AT_BYTES = 1024 * 1024;

export class IntentLog {
  /** The lines of calls not yet in the database (and their size in bytes), by call id. */
  private readonly unwritten = new Map<string, { line: string; bytes: number }>();
  private unwrittenBytes = 0;
  private size: number;
  /** Set when a failed append could not be cut off: the log takes no more lines. */
  private broken = false;

  private constructor(
    private readonly file: string,
    private fd: number,
  ) {
    this.size = fs.fstatSync(fd).size;
  }

  /** Opens (creating) the log at `file`, with the intents a previous run left in it. */
  static open(file: string): { log: IntentLog; leftovers: CallIntent[] } {
    const leftovers = readIntents(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
    return { log: new IntentLog(file, fs.openSync(file, "a", 0o600)), leftovers };
  }

  /** Throws when the line could not be written whole (the call is then not on record here). */
  append(intent: CallIntent): void {
    if (this.broken) throw new Error("the intent log failed earlier");
    const line = `${JSON.stringify(intent)}\n`;
    const bytes = Buffer.byteLength(line);
    try {
      const appended = fs.writeSync(this.fd, line);
      if (appended !== bytes) throw new Error(`only ${appended} of ${bytes} bytes written`);
    } catch (error) {
      // A partial line would swallow the next call's: cut it off, or take no more lines.
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        this.broken = true;
      }
      throw error;
    }
    this.size += bytes;
    this.unwritten.set(intent.callId, { line, bytes });
    this.unwrittenBytes += bytes;
  }

  /** These logged calls are in the database now. */
  written(callIds: string[]): void {
    for (const callId of callIds) {
      const logged = this.unwritten.get(callId);
      if (!logged) continue;
      this.unwritten.delete(callId);
      this.unwrittenBytes -= logged.bytes;
    }
    if (this.unwritten.size === 0) this.clear();
    // Past the bound, and mostly lines already written (else every batch would rewrite it).
    else if (this.size > COMPACT_AT_BYTES + 2 * this.unwrittenBytes) this.compact();
  }

  /** Forgets every line (the leftovers of a previous run, once written). */
  clear(): void {
    this.unwritten.clear();
    this.unwrittenBytes = 0;
    if (this.size === 0) return;
    fs.ftruncateSync(this.fd, 0);
    this.size = 0;
  }

  /** Rewrites the file with the lines of calls still missing in the database. */
  private compact(): void {
    const text = [...this.unwritten.values()].map((logged) => logged.line).join("");
    const next = `${this.file}.next`;
    fs.writeFileSync(next, text, { mode: 0o600 });
    // A crash before the rename leaves the full old file: its extra lines name calls already written.
    fs.renameSync(next, this.file);
    const previous = this.fd;
    this.fd = fs.openSync(this.file, "a", 0o600);
    this.size = this.unwrittenBytes;
    try {
      fs.closeSync(previous);
    } catch {
      // Nothing is written to it any more.
    }
  }
}

function readIntents(text: string): CallIntent[] {
  const intents: CallIntent[] = [];
  let unreadable = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const parsed = intentSchema.safeParse(JSON.parse(line));
      if (parsed.success) intents.push(parsed.data);
      else unreadable++;
    } catch {
      // Usually a torn last line: the process stopped while appending it, before that call ran.
      unreadable++;
    }
  }
  if (unreadable > 0) log.warn(`intent log: ${unreadable} unreadable line(s) skipped`);
  return intents;
}
