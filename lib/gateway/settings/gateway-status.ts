import { readEnv } from "@/lib/env";

/** What an operator needs to point an MCP client at this Switchboard's gateway. */
export type GatewayStatus = {
  /** SWITCHBOARD_MCP_ENABLED: false answers 404 at /mcp. */
  isEnabled: boolean;
  /** How long a gateway call waits for an approval before answering with the call id. */
  approvalWaitSeconds: number;
  /** Every granted tool, as `<server>__<tool>`. */
  url: string;
  /** One server's tools under their own names; `{name}` stands for the server's name. */
  serverUrlTemplate: string;
  /** A Claude Code command line, with a placeholder where the principal's key goes. */
  claudeCommand: string;
};

/** `origin` is where the caller reached Switchboard (see requestOrigin), so the URLs work for them. */
export function describeGateway(origin: string): GatewayStatus {
  const env = readEnv();
  const url = `${origin}/mcp`;
  return {
    isEnabled: env.mcpEnabled,
    approvalWaitSeconds: env.mcpApprovalWaitSeconds,
    url,
    serverUrlTemplate: `${url}/servers/{name}`,
    claudeCommand: `claude mcp add --transport http switchboard ${url} --header "Authorization: Bearer <key>"`,
  };
}
