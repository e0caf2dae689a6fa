import type { EffectClass } from "@/db/schema";
import {
  DESCRIBE_TOOL_TOOL,
  LIST_SERVERS_TOOL,
  SEARCH_TOOLS_TOOL,
} from "@/lib/gateway/discovery/definitions";
import { GET_CALL_TOOL, WAIT_CALL_TOOL } from "@/lib/gateway/server/results";
import { claudeCodeToolRule } from "./claude-code-names";
import type { ClientEntry, ClientFormat, ClientInput } from "./client-formats";
import { MCP_REMOTE_VERSION } from "./mcp-remote-version";

export { MCP_REMOTE_VERSION };

/**
 * The one entry an exported client configuration holds: Switchboard's gateway, authenticated with
 * a key the person fills in. Pure: the export service supplies the URL and the tools.
 */

export const GATEWAY_ENTRY_NAME = "switchboard";
/** The variable (or VS Code input) the key goes in; the export never contains a key. */
export const API_KEY_VARIABLE = "SWITCHBOARD_API_KEY";
const API_KEY_INPUT = "switchboard-api-key";
// mcp-remote reads `${VAR}` in its --header argument from its environment. The whole
// "Bearer …" value goes in the variable because Claude Desktop on Windows mangles spaces in args.
const AUTH_HEADER_VARIABLE = "SWITCHBOARD_AUTH_HEADER";

export function gatewayEntry(format: ClientFormat, gatewayUrl: string): ClientEntry {
  const base: ClientEntry = {
    source: GATEWAY_ENTRY_NAME,
    transport: "streamable-http",
    command: null,
    args: [],
    cwd: null,
    env: {},
    url: gatewayUrl,
    headers: {},
    disabled: false,
    problems: [],
    warnings: [],
  };
  switch (format) {
    case "claude-code":
      return { ...base, headers: { Authorization: `Bearer \${${API_KEY_VARIABLE}}` } };
    case "cursor":
      return { ...base, headers: { Authorization: `Bearer \${env:${API_KEY_VARIABLE}}` } };
    case "vscode":
      return { ...base, headers: { Authorization: `Bearer \${input:${API_KEY_INPUT}}` } };
    case "claude-desktop":
      // Claude Desktop only starts stdio servers: mcp-remote bridges stdio to the HTTP gateway.
      return {
        ...base,
        transport: "stdio",
        url: null,
        command: "npx",
        args: [
          "-y",
          `mcp-remote@${MCP_REMOTE_VERSION}`,
          gatewayUrl,
          "--header",
          `Authorization:\${${AUTH_HEADER_VARIABLE}}`,
          ...(needsAllowHttp(gatewayUrl) ? ["--allow-http"] : []),
        ],
        env: { [AUTH_HEADER_VARIABLE]: `Bearer <${API_KEY_VARIABLE}>` },
      };
  }
}

export const gatewayInputs: ClientInput[] = [
  { id: API_KEY_INPUT, description: "Switchboard API key (gateway scope)", password: true },
];

/** mcp-remote refuses plain http except to localhost unless told. */
function needsAllowHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === "http:" && !["localhost", "127.0.0.1", "[::1]"].includes(hostname);
}

/** Where the key goes, in words, per format. */
export function keyInstructions(format: ClientFormat): string {
  switch (format) {
    case "claude-code":
      return `Set ${API_KEY_VARIABLE} in the environment Claude Code starts in; it expands \${${API_KEY_VARIABLE}} in headers.`;
    case "cursor":
      return `Set ${API_KEY_VARIABLE} in the environment Cursor starts in; it expands \${env:${API_KEY_VARIABLE}}.`;
    case "vscode":
      return `VS Code asks for the key (input "${API_KEY_INPUT}") when it first starts the server.`;
    case "claude-desktop":
      return `Replace <${API_KEY_VARIABLE}> in env.${AUTH_HEADER_VARIABLE} with the key; mcp-remote (run by npx) forwards it.`;
  }
}

export type GatewayTool = { gatewayName: string; effect: EffectClass };
export type ClaudePermissions = { allow: string[]; ask: string[] };

/**
 * Switchboard's own read-only tools on /mcp: never worth a prompt. switchboard__call_tool is not one
 * of them: it runs any granted tool, so Claude Code asks, as for a tool it has no rule for.
 */
const META_TOOLS = [GET_CALL_TOOL, WAIT_CALL_TOOL, SEARCH_TOOLS_TOOL, DESCRIBE_TOOL_TOOL, LIST_SERVERS_TOOL];

/**
 * Claude Code permission rules for the gateway's tools, from their enforced effect: read tools and
 * the meta tools are allowed without asking; external-write (which includes every unclassified
 * tool) and destructive ones always ask. Plain writes are left to Claude Code's default (ask, and it
 * may remember). Rules use Claude Code's own spelling of the names (claude-code-names.ts).
 *
 * Two names can meet in one spelling (`a.b` and `a_b`): such a rule is never allowed if any tool
 * behind it is more than a read, so a read tool's rule can never wave a writing one through.
 */
export function claudeCodePermissions(tools: GatewayTool[]): ClaudePermissions {
  const rule = (gatewayName: string) => claudeCodeToolRule(GATEWAY_ENTRY_NAME, gatewayName);
  const rulesFor = (...effects: EffectClass[]) =>
    new Set(tools.filter((tool) => effects.includes(tool.effect)).map((tool) => rule(tool.gatewayName)));
  const ask = rulesFor("external-write", "destructive");
  const notRead = rulesFor("write", "external-write", "destructive");
  const allow = new Set([...rulesFor("read"), ...META_TOOLS.map(rule)]);
  return { allow: [...allow].filter((r) => !notRead.has(r)).sort(), ask: [...ask].sort() };
}
