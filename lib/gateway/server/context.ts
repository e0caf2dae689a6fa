import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { LoggingLevel, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { GatewayPrincipal } from "../auth";
import type { GatewayScope } from "./tools";

/** What every handler of the gateway's MCP server is given: who asks, through which endpoint, in which session. */

export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a session keeps between requests. */
export type GatewaySessionState = {
  readonly id: string;
  /** Set by logging/setLevel: less severe messages are not relayed. */
  logLevel: LoggingLevel | undefined;
  notifyResourceUpdated: (uri: string) => void;
  /** True once the session ended. */
  readonly closed: boolean;
};

export type GatewayContext = {
  principal: GatewayPrincipal;
  scope: GatewayScope;
  /** The session this server belongs to; undefined when it answers one stateless request. */
  session: GatewaySessionState | undefined;
  /** A fresh signal for one request: aborted by the client's cancellation or its HTTP request going away. */
  signalFor: (extra: RequestExtra) => AbortSignal;
};
