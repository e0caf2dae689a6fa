import { randomUUID } from "node:crypto";
import { type Command, InvalidArgumentError } from "commander";
import { type ApiClient, segment } from "../api-client";
import { collectPairs, contextOf } from "../context";
import { CliError, ExitCode, usageError } from "../errors";
import { note, print, printJson } from "../output";
import { Spinner } from "../spinner";
import { type CallWire, terminalCallStatuses, toolNameOf, unwrapCall } from "../wire-types";
import { coerceArguments } from "./call-arguments";
import { describeResult } from "./call-result";

// One wait request is bounded server-side; the CLI keeps asking until the call ends.
const WAIT_SECONDS = 25;

type CallOptions = {
  arg?: Array<[string, string]>;
  json?: string | boolean;
  args?: string;
  wait: boolean;
  timeout?: number;
};

/** POST /api/v1/calls through the governed path, then wait (with a spinner) for approval and the result. */
export function registerCall(program: Command): void {
  program
    .command("call")
    .description("call a tool through Switchboard's policy (grants, effects, approvals) and print the result")
    .argument("<tool>", "gateway name: <server>__<tool>, e.g. local-tools__echo")
    .option("-a, --arg <name=value>", "an argument (repeatable); typed by the tool's schema", collectPairs)
    .option(
      "--json [arguments]",
      "arguments as a JSON object; without a value: print the finished call as JSON",
    )
    .option("--args <object>", "arguments as a JSON object (same as --json '{…}')")
    .option("--no-wait", "do not wait for an approval: print the pending call and exit 0")
    .option("--timeout <seconds>", "give up waiting after this long (the call stays pending)", toSeconds)
    .addHelpText(
      "after",
      `
A call that needs approval waits, with a spinner on stderr, until someone decides it
(switchboard approvals approve <id>, or the dashboard). Exit code 5 when the tool fails or
reports an error, 6 when the call is denied or its approval expires.

Examples:
  $ switchboard call local-tools__echo --arg text=hello
  $ switchboard call local-tools__word_count --json '{"text": "one two three"}'
  $ switchboard call files__read_file --arg path=README.md --json`,
    )
    .action(async (tool: string, options: CallOptions, command: Command) => {
      const { client } = contextOf(command);
      const printAsJson = options.json === true;
      const args = await buildArguments(client, tool, options);
      const spinner = new Spinner().start(`Calling ${tool}…`);
      let call: CallWire | undefined;
      const onInterrupt = () => {
        spinner.stop();
        if (call) note(`Stopped waiting; the call continues. See: switchboard calls show ${call.id}`);
        process.exit(130);
      };
      process.once("SIGINT", onInterrupt);
      try {
        const response = await client.send("POST", "/api/v1/calls", {
          body: { tool, arguments: args, idempotencyKey: randomUUID() },
          timeoutMs: 3_600_000,
        });
        call = unwrapCall(await response.json());
        if (!options.wait && !terminalCallStatuses.includes(call.status)) {
          spinner.stop();
          return printAsJson
            ? printJson(call)
            : print(`Call ${call.id} is ${call.status.replace("_", " ")}.`);
        }
        call = await waitForCall(client, call, spinner, options.timeout);
      } finally {
        spinner.stop();
        process.off("SIGINT", onInterrupt);
      }
      report(call, printAsJson);
    });
}

async function waitForCall(
  client: ApiClient,
  first: CallWire,
  spinner: Spinner,
  timeout?: number,
): Promise<CallWire> {
  const deadline = timeout === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeout * 1000;
  let call = first;
  while (!terminalCallStatuses.includes(call.status)) {
    const approval = call.approval?.id ?? call.id;
    spinner.update(
      call.status === "pending_approval"
        ? `Waiting for approval of ${toolNameOf(call)} (call ${call.id}). Approve: switchboard approvals approve ${approval}`
        : `Running ${toolNameOf(call)}…`,
    );
    const remaining = Math.ceil((deadline - Date.now()) / 1000);
    if (remaining <= 0) {
      throw new CliError(
        `Still ${call.status.replace("_", " ")} after ${timeout} s; see switchboard calls show ${call.id}.`,
      );
    }
    const seconds = Math.min(WAIT_SECONDS, remaining);
    const body = await client.request<unknown>("GET", `/api/v1/calls/${segment(call.id)}/wait`, {
      query: { timeoutSeconds: seconds },
      timeoutMs: (seconds + 30) * 1000,
    });
    call = unwrapCall(body);
  }
  return call;
}

/** Prints the outcome, and turns a failed, errored or refused call into its exit code. */
function report(call: CallWire, printAsJson: boolean): void {
  if (printAsJson) printJson(call);
  const message = call.error?.message ?? call.approval?.reason ?? null;
  switch (call.status) {
    case "succeeded": {
      if (!printAsJson) print(describeResult(call.result));
      if (call.result?.isError || call.isError)
        throw new CliError(
          `tool error: ${toolNameOf(call)} ran and answered with isError (call ${call.id}).`,
          ExitCode.toolError,
        );
      return;
    }
    case "failed":
      throw new CliError(`${toolNameOf(call)} failed: ${message ?? "no reason given"}.`, ExitCode.toolError);
    case "denied":
      throw new CliError(`The call was denied${message ? `: ${message}` : "."}`, ExitCode.denied);
    case "expired":
      throw new CliError("Nobody decided in time: the approval expired.", ExitCode.denied);
    default:
      throw new CliError(`The call ended as ${call.status}${message ? `: ${message}` : "."}`);
  }
}

async function buildArguments(
  client: ApiClient,
  tool: string,
  options: CallOptions,
): Promise<Record<string, unknown>> {
  const jsonText = typeof options.json === "string" ? options.json : options.args;
  const base = jsonText === undefined ? {} : parseObject(jsonText);
  if (!options.arg?.length) return base;
  return { ...base, ...(await coerceArguments(client, tool, options.arg)) };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw usageError(`The arguments must be a JSON object, e.g. '{"text": "hello"}'; got ${text}`);
}

function toSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new InvalidArgumentError("expected a number of seconds.");
  return seconds;
}
