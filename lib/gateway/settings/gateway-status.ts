import type { Database } from "@/lib/db/client";
import { readEnv } from "@/lib/env";
import { gatewayToolsJson, listGatewayTools, withSwitchboardTools } from "@/lib/gateway/server/tools";
import { listPrincipals } from "@/lib/principals/principals";

/** What an operator needs to point an MCP client at this Switchboard's gateway. */
export type GatewayStatus = {
  /** SWITCHBOARD_MCP_ENABLED: false answers 404 at /mcp. */
  isEnabled: boolean;
  /** How long a gateway call waits for an approval before answering with the call id. */
  approvalWaitSeconds: number;
  /** Every granted tool, as `<server>__<tool>`. */
  url: string;
  /** Every granted tool, found through the discovery tools rather than listed. */
  discoverUrl: string;
  /** One server's tools under their own names; `{name}` stands for the server's name. */
  serverUrlTemplate: string;
  /** A Claude Code command line, with a placeholder where the principal's key goes. */
  claudeCommand: string;
  /** The same for discovery mode. */
  discoverClaudeCommand: string;
};

/** `origin` is where the caller reached Switchboard (see requestOrigin), so the URLs work for them. */
export function describeGateway(origin: string): GatewayStatus {
  const env = readEnv();
  const url = `${origin}/mcp`;
  const claude = (name: string, at: string) =>
    `claude mcp add --transport http ${name} ${at} --header "Authorization: Bearer <key>"`;
  return {
    isEnabled: env.mcpEnabled,
    approvalWaitSeconds: env.mcpApprovalWaitSeconds,
    url,
    discoverUrl: `${url}/discover`,
    serverUrlTemplate: `${url}/servers/{name}`,
    claudeCommand: claude("switchboard", url),
    discoverClaudeCommand: claude("switchboard", `${url}/discover`),
  };
}

/** How much a client reads from tools/list in each mode, per principal of the workspace. */
export type ToolListSizes = {
  /** /mcp/discover's list: the same for everyone (Switchboard's six tools) */
  discoverBytes: number;
  principals: Array<{ id: string; name: string; tools: number; fullBytes: number }>;
};

/**
 * Measured, not estimated: the byte length of the `tools` JSON each endpoint answers tools/list
 * with, from the same cached lists the gateway serves (so a second look costs no rebuild).
 */
export async function measureToolLists(db: Database, params: { tenantId: string }): Promise<ToolListSizes> {
  const { tenantId } = params;
  const principals = await listPrincipals(db, { tenantId });
  const measured = [];
  // One at a time: a workspace of 10,000 tools makes each list a few megabytes to build.
  for (const principal of principals) {
    const of = { tenantId, principalId: principal.id, scope: "all" as const };
    const [tools, json] = [await listGatewayTools(db, of), await gatewayToolsJson(db, of)];
    measured.push({ id: principal.id, name: principal.name, tools: tools.length, fullBytes: json.length });
  }
  return {
    discoverBytes: Buffer.byteLength(JSON.stringify(withSwitchboardTools("discover", []))),
    principals: measured,
  };
}
