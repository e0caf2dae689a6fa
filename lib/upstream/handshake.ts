import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  ElicitRequestSchema,
  type ElicitResult,
  type Implementation,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  type ListRootsResult,
  LoggingMessageNotificationSchema,
  type ProgressNotification,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ServerCapabilities,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { LogMessage, RelayedRequest } from "./caller-relay";
import type { ServerInfo } from "./pool-events";
import type { OpenedTransport } from "./transports";

/** The MCP handshake over a fresh transport, bounded by the connect timeout as a whole. */

export type Handshake = {
  serverInfo?: ServerInfo;
  capabilities?: ServerCapabilities;
  protocolVersion?: string;
  instructions?: string;
};

/** What the server sends our way besides answers: passed to the connection, which routes it. */
export type DownstreamRelay = {
  /** Progress of our requests, by the token we sent; called in arrival order, before the answer. */
  progress: (params: ProgressNotification["params"]) => void;
  request: (request: RelayedRequest, signal: AbortSignal) => Promise<Record<string, unknown>>;
  log: (message: LogMessage) => void;
  resourceUpdated: (uri: string) => void;
};

/**
 * Declared so a server may ask while a call runs; each request is relayed to the gateway client
 * whose call it is, or refused (caller-relay). server-filesystem asks for roots right after
 * initialize — outside any call, so it is refused and keeps the folders it was started with.
 */
const CLIENT_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: {},
};

export class ConnectTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`connect timeout after ${timeoutMs} ms`);
    this.name = "ConnectTimeoutError";
  }
}

export async function performHandshake(
  opened: OpenedTransport,
  options: {
    clientInfo: Implementation;
    timeoutMs: number;
    onListChanged: (list: "tools" | "resources" | "prompts") => void;
    relay: DownstreamRelay;
  },
): Promise<{ client: Client; handshake: Handshake }> {
  const handshake: Handshake = {};
  captureProtocolVersion(opened, handshake);
  tapProgress(opened, options.relay.progress);
  const client = new Client(options.clientInfo, { capabilities: CLIENT_CAPABILITIES });
  // The pool owns these handlers; the catalog hears about changes through pool events.
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onListChanged("tools"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
    options.onListChanged("resources"),
  );
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => options.onListChanged("prompts"));
  relayToCallers(client, options.relay);

  // The bound covers the whole attempt (spawn or first HTTP request included), not just initialize.
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectTimeoutError(options.timeoutMs)), options.timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([client.connect(opened.transport, { timeout: options.timeoutMs }), timeout]);
  } finally {
    clearTimeout(timer);
  }
  handshake.serverInfo = client.getServerVersion();
  handshake.capabilities = client.getServerCapabilities();
  handshake.instructions = client.getInstructions();
  return { client, handshake };
}

function relayToCallers(client: Client, relay: DownstreamRelay): void {
  // The SDK client has validated each request (and validates each answer) against its schema.
  client.setRequestHandler(
    CreateMessageRequestSchema,
    (request, extra) => relay.request(request, extra.signal) as Promise<CreateMessageResult>,
  );
  client.setRequestHandler(
    ElicitRequestSchema,
    (request, extra) => relay.request(request, extra.signal) as Promise<ElicitResult>,
  );
  client.setRequestHandler(
    ListRootsRequestSchema,
    (request, extra) => relay.request(request, extra.signal) as Promise<ListRootsResult>,
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
    relay.log(notification.params),
  );
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
    relay.resourceUpdated(notification.params.uri),
  );
}

/**
 * The SDK client hands a notification to its handlers a microtask after it arrives, while it
 * settles a response at once — and drops the request's progress handler with it. A server's last
 * progress notice, read together with the answer, would be lost. So progress is taken from the
 * transport as it arrives (the client chains the handler set here before its own).
 */
function tapProgress(opened: OpenedTransport, deliver: DownstreamRelay["progress"]): void {
  opened.transport.onmessage = (message: JSONRPCMessage) => {
    if (!("method" in message) || message.method !== "notifications/progress" || "id" in message) return;
    const parsed = ProgressNotificationSchema.safeParse(message);
    if (parsed.success) deliver(parsed.data.params);
  };
}

/** The SDK client tells only the transport which protocol version was agreed; listen in. */
function captureProtocolVersion(opened: OpenedTransport, into: Handshake): void {
  const transport = opened.transport as { setProtocolVersion?: (version: string) => void };
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version: string) => {
    into.protocolVersion = version;
    original?.(version);
  };
}
