import {
  type ClientCapabilities,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  type LoggingLevel,
  LoggingLevelSchema,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { CallerChannel, LogMessage, RelayedRequest } from "@/lib/upstream/caller-relay";
import type { RequestExtra } from "./context";

/** How the caller's client is reached: the SDK's per-request senders, or what stands in for them. */
export type CallerSend = Pick<RequestExtra, "sendRequest" | "sendNotification">;

/**
 * The gateway client behind one tools/call, as the downstream connection sees it (caller-relay):
 * what it declared it can answer, and its request stream, on which the downstream server's
 * requests and log messages reach it in order, before the result.
 */
export function gatewayCaller(params: {
  /** The caller's session (its id owns the call; its log level filters); undefined when stateless. */
  session: { id: string; logLevel: LoggingLevel | undefined } | undefined;
  /** What the client declared at initialize; undefined without a session (nothing can be asked back). */
  capabilities: ClientCapabilities | undefined;
  send: CallerSend;
}): CallerChannel {
  const { send, session } = params;
  return {
    owner: session?.id ?? crypto.randomUUID(),
    refusal: (request) => refusalOf(request, params.capabilities),
    request: (request, signal) =>
      send.sendRequest(request as ServerRequest, resultSchemaOf(request), { signal }) as Promise<
        Record<string, unknown>
      >,
    log: (message: LogMessage) => {
      // The least severe level the client wants (logging/setLevel); undefined = everything.
      if (isBelow(message.level, session?.logLevel)) return;
      // A client that went away must not fail the call.
      send.sendNotification({ method: "notifications/message", params: message }).catch(() => {});
    },
  };
}

/** Whether a client with these capabilities could be asked anything back (sampling, elicitation, roots). */
export function mayAskBack(capabilities: ClientCapabilities | undefined): boolean {
  return Boolean(capabilities?.sampling || capabilities?.elicitation || capabilities?.roots);
}

function refusalOf(
  request: RelayedRequest,
  capabilities: ClientCapabilities | undefined,
): string | undefined {
  if (!capabilities) {
    return `The tool call came without a session, so its client cannot be asked anything back (${request.method}): connect with initialize and send the Mcp-Session-Id.`;
  }
  const missing = (what: string) => `The client that made this call did not declare the ${what} capability.`;
  switch (request.method) {
    case "sampling/createMessage":
      if (!capabilities.sampling) return missing("sampling");
      return request.params?.tools && !capabilities.sampling.tools ? missing("sampling.tools") : undefined;
    case "elicitation/create": {
      const elicitation = capabilities.elicitation;
      if (!elicitation) return missing("elicitation");
      if (request.params?.mode === "url") return elicitation.url ? undefined : missing("elicitation.url");
      // An empty elicitation capability means form mode (MCP's backwards compatibility).
      return elicitation.form || !elicitation.url ? undefined : missing("elicitation.form");
    }
    case "roots/list":
      return capabilities.roots ? undefined : missing("roots");
  }
}

function resultSchemaOf(request: RelayedRequest) {
  switch (request.method) {
    case "sampling/createMessage":
      return request.params?.tools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema;
    case "elicitation/create":
      return ElicitResultSchema;
    case "roots/list":
      return ListRootsResultSchema;
  }
}

const SEVERITY = LoggingLevelSchema.options;

function isBelow(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold !== undefined && SEVERITY.indexOf(level) < SEVERITY.indexOf(threshold);
}
