import fs from "node:fs";
import { z } from "zod";

/**
 * Where an allowed call is on record before it runs when its database row comes later (embedded
 * PGlite, see call-journal): one line per call, appended synchronously before the downstream
 * server is asked, and emptied whenever every call it names is in the database. A crash leaves the
 * lines of calls not written yet; the next start writes those calls from them. Lines survive a
 * crash of the process as the database's own writes do (written through to the file system).
 */

/** A call's start: its id and its start statement's arguments (lib/calls/call-journal.ts). */
const intentSchema = z.object({ callId: z.string().min(1), values: z.array(z.string().nullable()) });
export type CallIntent = z.infer<typeof intentSchema>;

export class IntentLog {
  /** Lines appended and not yet in the database; zero empties the file. */
  private unwritten = 0;

  private constructor(private readonly fd: number) {}

  /** Opens (creating) the log at `file`, with the intents a previous run left in it. */
  static open(file: string): { log: IntentLog; leftovers: CallIntent[] } {
    const leftovers = readIntents(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
    const log = new IntentLog(fs.openSync(file, "a", 0o600));
    log.unwritten = leftovers.length;
    return { log, leftovers };
  }

  append(intent: CallIntent): void {
    fs.writeSync(this.fd, `${JSON.stringify(intent)}\n`);
    this.unwritten++;
  }

  /** `count` of the logged calls are in the database now. */
  written(count: number): void {
    this.unwritten = Math.max(0, this.unwritten - count);
    if (this.unwritten === 0) fs.ftruncateSync(this.fd, 0);
  }
}

function readIntents(text: string): CallIntent[] {
  const intents: CallIntent[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const parsed = intentSchema.safeParse(JSON.parse(line));
      if (parsed.success) intents.push(parsed.data);
    } catch {
      // A torn last line: the process stopped while appending it, so that call was never run.
    }
  }
  return intents;
}
