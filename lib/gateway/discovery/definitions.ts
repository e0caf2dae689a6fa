import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { effectClasses } from "@/lib/policy/effects";

/**
 * Switchboard's discovery tools: an agent granted thousands of tools finds, reads and runs them
 * through these four instead of a tools/list of megabytes. The only tools `/mcp/discover` lists
 * (with the call collectors), and the last ones `/mcp` lists, for a client that would rather
 * search its long list than read it.
 */

export const SEARCH_TOOLS_TOOL = "switchboard__search_tools";
export const DESCRIBE_TOOL_TOOL = "switchboard__describe_tool";
export const CALL_TOOL_TOOL = "switchboard__call_tool";
export const LIST_SERVERS_TOOL = "switchboard__list_servers";

export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;
export const QUERY_MAX_CHARACTERS = 500;
export const EFFECT_FILTERS = [...effectClasses, "unclassified"] as const;

const toolName = {
  type: "string",
  description: `a tool's name as ${SEARCH_TOOLS_TOOL} returned it (\`<server>__<tool>\`)`,
};

export const discoveryTools: Tool[] = [
  {
    name: SEARCH_TOOLS_TOOL,
    title: "Search your tools",
    description:
      "Finds the tools you may call by what they do, best match first: name, title, one-line description, " +
      `server and enforced effect. Read one's input schema with ${DESCRIBE_TOOL_TOOL}, run it with ${CALL_TOOL_TOOL}.`,
    inputSchema: {
      type: "object",
      properties: {
        query: {
          type: "string",
          minLength: 1,
          maxLength: QUERY_MAX_CHARACTERS,
          description: 'words for what you want done, e.g. "create github issue" or "send slack message"',
        },
        server: { type: "string", description: "only tools of this server" },
        effect: {
          type: "string",
          enum: [...EFFECT_FILTERS],
          description: "only tools with this enforced effect",
        },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: SEARCH_LIMIT_MAX,
          default: SEARCH_LIMIT_DEFAULT,
          description: "how many tools to return at most",
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: DESCRIBE_TOOL_TOOL,
    title: "Describe a tool",
    description:
      "Returns one of your tools in full: description, input and output schemas and enforced effect, exactly as " +
      "the full tool list gives it.",
    inputSchema: {
      type: "object",
      properties: { name: toolName },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: CALL_TOOL_TOOL,
    title: "Call a tool",
    description:
      "Runs one of your tools with the given arguments, under the same grants, effects and approvals as any call. " +
      "Returns the tool's result when it finishes within waitSeconds; a call that waits for a person's approval " +
      'returns {"callId", "status"} instead — collect it with switchboard__wait_call.',
    inputSchema: {
      type: "object",
      properties: {
        name: toolName,
        arguments: { type: "object", description: "the tool's arguments, matching its input schema" },
        waitSeconds: {
          type: "integer",
          minimum: 0,
          maximum: 120,
          description:
            "how long to wait for an approval before returning the call id (default: the gateway's wait)",
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
  {
    name: LIST_SERVERS_TOOL,
    title: "List your servers",
    description:
      "The MCP servers whose tools you may call, with their connection state and how many of their tools are yours.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

const names = new Set(discoveryTools.map((tool) => tool.name));
export const isDiscoveryTool = (name: string) => names.has(name);
