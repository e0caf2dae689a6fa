import { setTimeout as sleep } from "node:timers/promises";
import { type Command, InvalidArgumentError } from "commander";
import type { ApiClient } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError, ExitCode } from "../errors";
import { type Colors, formatTime, note, print } from "../output";
import { readSse } from "../sse";
import { describeEvent, type EventWire } from "./event-format";

export type TailOptions = {
  server?: string;
  type?: string;
  call?: string;
  since?: string;
  count?: number;
  /** run each time the stream (re)opens, to catch up on what happened before it did; true stops */
  onOpen?: () => Promise<boolean | undefined>;
};

const MAX_BACKOFF_MS = 15_000;

/** GET /api/v1/events/stream: live events as they happen; after a drop it resumes from the last id. */
export function registerEvents(program: Command): void {
  const events = program.command("events").description("what happens in the workspace, as it happens");

  withJsonOption(
    events
      .command("tail")
      .description("follow the live event stream (Ctrl-C to stop)")
      .option("--server <name>", "only this server's events")
      .option(
        "--type <types>",
        "only these event types, comma-separated; a prefix such as call. means all of them",
      )
      .option("--call <id>", "only this call's events")
      .option("--since <event-id>", "first replay the events after this id, then follow")
      .option("--count <n>", "exit after this many events", toCount)
      .addHelpText(
        "after",
        `
With --json each event is one JSON line (NDJSON). If the connection drops, tail reconnects with
Last-Event-ID and the server replays what was missed.`,
      ),
  ).action(async (options: TailOptions, command: Command) => {
    const { client, json, colors } = contextOf(command);
    await tail(client, options, (event) => {
      print(json ? JSON.stringify(event) : formatLine(event, colors));
      return false;
    });
  });
}

/**
 * Follows the stream until --count events arrived, `onEvent` answers true, or forever. The first
 * connection must succeed (exit 4 otherwise); later drops are retried with backoff, resuming after
 * the last event seen.
 */
export async function tail(
  client: ApiClient,
  options: TailOptions,
  /** answers true to stop following */
  onEvent: (event: EventWire) => boolean | undefined | Promise<boolean | undefined>,
): Promise<void> {
  let lastEventId = options.since;
  let received = 0;
  let connected = false;
  // The server's `retry:` hint, else half a second; doubled on each failed attempt.
  let retryMs = 500;
  let backoff = retryMs;
  for (;;) {
    let response: Response;
    try {
      response = await client.send("GET", "/api/v1/events/stream", {
        query: { server: options.server, type: options.type, call: options.call },
        headers: { accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
        // The connection stays open; only the wait for the response headers is bounded.
        timeoutMs: 2 ** 31 - 1,
      });
    } catch (error) {
      if (!connected || !isTransient(error)) throw error;
      note(
        `Switchboard is not answering (${(error as Error).message}); retrying in ${(backoff / 1000).toFixed(1)} s…`,
      );
      await sleep(backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      continue;
    }
    if (!response.body) throw new CliError("The server sent no event stream.");
    connected = true;
    if (options.onOpen && (await options.onOpen()) === true) {
      await response.body.cancel().catch(() => {});
      return;
    }
    try {
      for await (const message of readSse(response.body)) {
        if (message.kind === "retry") {
          retryMs = backoff = message.retryMs;
          continue;
        }
        backoff = retryMs;
        // What EventSource would send as Last-Event-ID: the last id seen, kept across events without one.
        if (message.id !== undefined) lastEventId = message.id;
        // "gap": this reader fell behind and the server resynced it from the table; nothing is lost.
        if (message.event === "gap") continue;
        const event = parseEvent(message.data, message.event, message.id);
        if (!event) continue;
        const done = await onEvent(event);
        if (done === true || (options.count !== undefined && ++received >= options.count)) {
          await response.body.cancel().catch(() => {});
          return;
        }
      }
    } catch {
      // A dropped connection ends the read with an error: reconnect below, like the end of the stream.
    }
    note(`Connection lost; reconnecting${lastEventId ? ` after event ${lastEventId}` : ""}…`);
    await sleep(backoff);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }
}

/** Worth retrying once the stream has worked: the server restarting or briefly unavailable. */
function isTransient(error: unknown): boolean {
  if (!(error instanceof CliError)) return false;
  return error.exitCode === ExitCode.unreachable || (error.status !== undefined && error.status >= 500);
}

function parseEvent(data: string, eventName: string, id: string | undefined): EventWire | undefined {
  try {
    const value = JSON.parse(data) as EventWire;
    if (!value || typeof value !== "object") return undefined;
    return { ...value, type: value.type ?? eventName, id: value.id ?? id };
  } catch {
    return undefined; // keep-alives and anything that is not an event
  }
}

function formatLine(event: EventWire, colors: Colors): string {
  // Padded before colouring, so the columns line up whatever the escape codes add.
  const name = event.type.padEnd(24);
  const type =
    event.type === "call.denied" || event.type.endsWith("failed") ? colors.red(name) : colors.cyan(name);
  const id = `#${event.id ?? "?"}`.padEnd(7);
  return `${colors.dim(formatTime(event.createdAt))}  ${colors.dim(id)} ${type} ${describeEvent(event)}`.trimEnd();
}

function toCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new InvalidArgumentError("expected a whole number of events.");
  return count;
}
