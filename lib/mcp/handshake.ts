import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type Implementation,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  type ServerCapabilities,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ServerInfo } from "./pool-events";
import type { OpenedTransport } from "./transports";

/** The MCP handshake over a fresh transport, bounded by the connect timeout as a whole. */

export type Handshake = {
  serverInfo?: ServerInfo;
  capabilities?: ServerCapabilities;
  protocolVersion?: string;
  instructions?: string;
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
  },
): Promise<{ client: Client; handshake: Handshake }> {
  const handshake: Handshake = {};
  captureProtocolVersion(opened, handshake);
  // Capabilities: none. Declaring roots makes server-filesystem replace its folders with ours,
  // and sampling/elicitation would invite requests nobody here answers.
  const client = new Client(options.clientInfo, { capabilities: {} });
  // The pool owns these handlers; the catalog hears about changes through pool events.
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onListChanged("tools"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
    options.onListChanged("resources"),
  );
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => options.onListChanged("prompts"));

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

/** The SDK client tells only the transport which protocol version was agreed; listen in. */
function captureProtocolVersion(opened: OpenedTransport, into: Handshake): void {
  const transport = opened.transport as { setProtocolVersion?: (version: string) => void };
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version: string) => {
    into.protocolVersion = version;
    original?.(version);
  };
}
