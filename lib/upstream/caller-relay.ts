import { ErrorCode, type LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { processSingleton } from "@/lib/process-singleton";

/**
 * What a downstream server may send back towards whoever called it, and who that is.
 *
 * A pooled connection is shared by every caller, and MCP gives a server-to-client request or a log
 * message no link to the tool call it belongs to (over stdio there is none at all). So the owner is
 * inferred from what is in flight on the connection: when the calls running there all come from one
 * gateway client, that client is the owner. When they come from several, the owner is ambiguous and
 * nothing is relayed — guessing could hand one client's prompt, form or files to another principal.
 * (A client that could not take a request is no proof that the request is not its own: the server
 * sees the pool's capabilities, not the caller's, so it asks regardless.)
 *
 * One exception to "refuse what the caller cannot take": a form elicitation (elicitation/create)
 * during the only call running on the connection, whose caller cannot answer it (it did not declare
 * the capability, it came through REST or the CLI, or its client went away mid-request), goes to an
 * operator instead (lib/elicitations). Only then is the call it belongs to certain — with two
 * calls in flight, even of one client, the question would be shown on a guessed call's page — and
 * only a form: its answer is data an operator can type, checked against the server's own schema.
 * Sampling and roots never go to a person: neither has an answer an operator could give.
 */

/** The server-to-client requests relayed (the pool's client declares these capabilities). */
export type RelayedMethod = "sampling/createMessage" | "elicitation/create" | "roots/list";
export type RelayedRequest = { method: RelayedMethod; params?: Record<string, unknown> };
export type LogMessage = LoggingMessageNotification["params"];

/** The gateway caller of one tool call, as the connection that runs the call sees it. */
export type CallerChannel = {
  /** The gateway client the call came from: its session id, or a one-off id for a stateless request. */
  owner: string;
  /** Why this caller cannot take `request` (it did not declare the capability, has no session…), or undefined. */
  refusal: (request: RelayedRequest) => string | undefined;
  /** Sends `request` to the caller's client and resolves with its answer. */
  request: (request: RelayedRequest, signal: AbortSignal) => Promise<Record<string, unknown>>;
  /** A log message of the server while the call runs. */
  log: (message: LogMessage) => void;
};

/** The recorded call a question may be put to an operator for (see the module comment). */
export type OperatorTarget = {
  /** The call's record id: the question is shown with it. */
  callId: string;
  /** Stops the call's own timeout while a person answers; the returned function starts it again. */
  hold: () => () => void;
  /** Aborted when the call ends (or its caller cancels it): the question is withdrawn. */
  signal: AbortSignal;
};

export type Route =
  | { kind: "relay"; caller: CallerChannel; fallback?: OperatorTarget }
  | { kind: "operator"; target: OperatorTarget; reason: string }
  | { kind: "refuse"; code: ErrorCode; reason: string };

type InFlightCall = { caller: CallerChannel; target: OperatorTarget | undefined };

/** The calls in flight on one connection, by caller. */
export class InFlightCalls {
  private readonly calls: InFlightCall[] = [];

  /** A call of `caller` starts; the returned function ends it. `target`: its record, if it has one. */
  enter(caller: CallerChannel, target?: OperatorTarget): () => void {
    const call: InFlightCall = { caller, target };
    this.calls.push(call);
    return () => {
      const at = this.calls.indexOf(call);
      if (at >= 0) this.calls.splice(at, 1);
    };
  }

  route(request: RelayedRequest): Route {
    const owners = new Set(this.calls.map((call) => call.caller.owner));
    const caller = this.calls[0]?.caller;
    if (!caller) {
      return {
        kind: "refuse",
        code: ErrorCode.InvalidRequest,
        reason: `Switchboard relays ${request.method} only to the client whose tool call is running, and no call is running on this connection.`,
      };
    }
    if (owners.size > 1) {
      return {
        kind: "refuse",
        code: ErrorCode.InvalidRequest,
        reason: `Switchboard cannot tell which of the ${owners.size} clients with calls running on this connection this ${request.method} request is for, so it relays it to none.`,
      };
    }
    const target = this.operatorTarget(request);
    const refusal = caller.refusal(request);
    if (refusal && target) return { kind: "operator", target, reason: refusal };
    if (refusal) return { kind: "refuse", code: ErrorCode.MethodNotFound, reason: refusal };
    return { kind: "relay", caller, ...(target ? { fallback: target } : {}) };
  }

  /** Whom an operator would answer for: a form elicitation during the only call running here. */
  private operatorTarget(request: RelayedRequest): OperatorTarget | undefined {
    if (request.method !== "elicitation/create" || request.params?.mode === "url") return undefined;
    return this.calls.length === 1 ? this.calls[0]?.target : undefined;
  }

  /** Where a log message goes: the one client with calls running here, else nowhere. */
  logTarget(): CallerChannel | undefined {
    const caller = this.calls[0]?.caller;
    return caller && this.calls.every((other) => other.caller.owner === caller.owner) ? caller : undefined;
  }
}

/**
 * The caller behind a call, looked up by the call's abort signal. The governed call path
 * (executeToolCall, and the local waiter of a call approved later) hands the caller's signal
 * unchanged to the pool, so the channel rides on it instead of widening every signature on that
 * path. On globalThis, like the pool: the gateway's route bundles and the runtime share one table.
 */
const channels = processSingleton("CallerChannels", () => new WeakMap<AbortSignal, CallerChannel>());

export function attachCaller(signal: AbortSignal, caller: CallerChannel): () => void {
  channels.set(signal, caller);
  return () => {
    if (channels.get(signal) === caller) channels.delete(signal);
  };
}

/**
 * The caller's signal joined with another reason to stop (a shutdown's grace period ending): the
 * joined signal names the same caller, so the call's server requests and logs still reach it.
 */
export function joinCallerSignal(signal: AbortSignal | undefined, other: AbortSignal): AbortSignal {
  if (!signal) return other;
  const joined = AbortSignal.any([signal, other]);
  const caller = channels.get(signal);
  if (caller) channels.set(joined, caller);
  return joined;
}

/**
 * The caller behind a call: its channel, or — for a call from the REST API, the playground or the
 * CLI — one that takes nothing. Those calls count too: while one runs, the owner of a request is
 * no longer certain.
 */
export function callerOf(signal: AbortSignal | undefined): CallerChannel {
  return (signal && channels.get(signal)) ?? unreachableCaller();
}

function unreachableCaller(): CallerChannel {
  return {
    owner: crypto.randomUUID(),
    refusal: (request) =>
      `The call did not come from an MCP client Switchboard can ask (${request.method}): it came through the REST API, the playground or the CLI.`,
    request: () => Promise.reject(new Error("unreachable caller")),
    log: () => {},
  };
}
