import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type CallDto, isFinished } from "@/lib/calls/call-view";
import type { Database } from "@/lib/db/client";
import type { GatewayPrincipal } from "@/lib/gateway/auth";
import { MAX_WAIT_SECONDS } from "@/lib/gateway/server/meta-tools";
import { callToToolResult, WAIT_CALL_TOOL } from "@/lib/gateway/server/results";
import { grantedTools } from "@/lib/gateway/server/tools";
import { checkAgainstSchema } from "@/lib/tool-schema-check";
import {
  CALL_TOOL_TOOL,
  DESCRIBE_TOOL_TOOL,
  EFFECT_FILTERS,
  LIST_SERVERS_TOOL,
  QUERY_MAX_CHARACTERS,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SEARCH_TOOLS_TOOL,
} from "./definitions";
import { type DiscoverableTool, ToolIndex } from "./tool-search";

/**
 * The discovery tools' answers. Each is one text block of compact JSON; a request a model got
 * wrong (bad arguments, a name it may not use) is a tool error that says what to do instead, and
 * nothing is run. Only the principal's granted, callable tools exist here: a tool granted to
 * someone else is "not available to you", exactly like one that does not exist.
 */

/** How a discovery call runs a tool: the gateway's governed path, with the request's caller attached. */
export type RunGatewayCall = (target: {
  gatewayName: string;
  arguments: Record<string, unknown>;
  waitSeconds: number | undefined;
  answer: (call: CallDto, waitedSeconds: number) => CallToolResult;
}) => Promise<CallToolResult>;

const searchArguments = z.strictObject({
  query: z
    .string({ error: "query (text) is required: say in a few words what you want done." })
    .trim()
    .min(1, { error: "query is empty: say in a few words what you want done." })
    .max(QUERY_MAX_CHARACTERS, {
      error: `query is longer than ${QUERY_MAX_CHARACTERS} characters: use a few words for what you want done.`,
    }),
  server: z.string({ error: "server is a server's name." }).trim().min(1).optional(),
  effect: z.enum(EFFECT_FILTERS, { error: `effect is one of ${EFFECT_FILTERS.join(", ")}.` }).optional(),
  limit: z
    .number({ error: `limit is a whole number from 1 to ${SEARCH_LIMIT_MAX}.` })
    .int({ error: `limit is a whole number from 1 to ${SEARCH_LIMIT_MAX}.` })
    .min(1, { error: `limit is a whole number from 1 to ${SEARCH_LIMIT_MAX}.` })
    .max(SEARCH_LIMIT_MAX, { error: `limit is at most ${SEARCH_LIMIT_MAX}.` })
    .default(SEARCH_LIMIT_DEFAULT),
});

const toolNameArgument = z
  .string({ error: `name (a tool's name from ${SEARCH_TOOLS_TOOL}) is required.` })
  .trim()
  .min(1, { error: `name (a tool's name from ${SEARCH_TOOLS_TOOL}) is required.` })
  .max(200, { error: "name is at most 200 characters." });

const describeArguments = z.strictObject({ name: toolNameArgument });

const callArguments = z.strictObject({
  name: toolNameArgument,
  arguments: z
    .record(z.string(), z.unknown(), { error: "arguments must be a JSON object of the tool's arguments." })
    .default({}),
  waitSeconds: z
    .number({ error: `waitSeconds is a whole number from 0 to ${MAX_WAIT_SECONDS}.` })
    .int({ error: `waitSeconds is a whole number from 0 to ${MAX_WAIT_SECONDS}.` })
    .min(0, { error: `waitSeconds is a whole number from 0 to ${MAX_WAIT_SECONDS}.` })
    .max(MAX_WAIT_SECONDS, { error: `waitSeconds is at most ${MAX_WAIT_SECONDS}.` })
    .optional(),
});

const listServersArguments = z.strictObject({});

/** Each granted list's search index, built on the first search of it. */
const indexes = new WeakMap<DiscoverableTool[], ToolIndex>();

async function indexOf(db: Database, principal: GatewayPrincipal): Promise<ToolIndex> {
  const granted = await grantedTools(db, principal);
  let index = indexes.get(granted);
  if (!index) {
    index = new ToolIndex(granted);
    indexes.set(granted, index);
  }
  return index;
}

export async function callDiscoveryTool(
  db: Database,
  params: {
    principal: GatewayPrincipal;
    name: string;
    arguments: Record<string, unknown> | undefined;
    run: RunGatewayCall;
  },
): Promise<CallToolResult> {
  const { principal, name } = params;
  const input = params.arguments ?? {};
  switch (name) {
    case SEARCH_TOOLS_TOOL: {
      const parsed = searchArguments.safeParse(input);
      if (!parsed.success) return invalid(name, parsed.error);
      const index = await indexOf(db, principal);
      const { server } = parsed.data;
      if (server !== undefined && !index.tools.some((entry) => entry.server === server))
        return toolError(
          `You have no tools on a server named "${server}". ${LIST_SERVERS_TOOL} lists yours.`,
        );
      const found = index.find(parsed.data);
      return json({
        tools: found.map(summaryOf),
        ...(found.length === 0
          ? {
              hint: `No tool of yours matches. Try other words, or ${LIST_SERVERS_TOOL} to see your servers.`,
            }
          : {}),
      });
    }
    case DESCRIBE_TOOL_TOOL: {
      const parsed = describeArguments.safeParse(input);
      if (!parsed.success) return invalid(name, parsed.error);
      const entry = (await indexOf(db, principal)).get(parsed.data.name);
      if (!entry) return unknownTool(parsed.data.name);
      return json({ server: entry.server, effect: entry.effect, tool: entry.tool });
    }
    case CALL_TOOL_TOOL: {
      const parsed = callArguments.safeParse(input);
      if (!parsed.success) return invalid(name, parsed.error);
      const entry = (await indexOf(db, principal)).get(parsed.data.name);
      if (!entry) return unknownTool(parsed.data.name);
      const problems = checkAgainstSchema(entry.tool.inputSchema, parsed.data.arguments);
      if (problems && problems.length > 0) {
        const listed = problems.map((p) => `${p.path.length ? p.path.join(".") : "arguments"} ${p.problem}`);
        return toolError(
          `The arguments do not fit ${entry.tool.name}'s input schema, so it was not run: ${listed.join("; ")}. ` +
            `${DESCRIBE_TOOL_TOOL} gives the schema.`,
        );
      }
      return params.run({
        gatewayName: entry.tool.name,
        arguments: parsed.data.arguments,
        waitSeconds: parsed.data.waitSeconds,
        answer: (call, waitedSeconds) =>
          isFinished(call.status)
            ? callToToolResult(call, { waitedSeconds })
            : json({
                callId: call.id,
                status: call.status,
                next: `Collect its outcome with ${WAIT_CALL_TOOL} {"callId": "${call.id}"}.`,
              }),
      });
    }
    case LIST_SERVERS_TOOL: {
      const parsed = listServersArguments.safeParse(input);
      if (!parsed.success) return invalid(name, parsed.error);
      return json({ servers: serversOf((await indexOf(db, principal)).tools) });
    }
    default:
      return toolError(`${name} is not a discovery tool.`);
  }
}

/** What a search lists of a tool: enough to choose it, not its schema. */
function summaryOf(entry: DiscoverableTool) {
  const title = entry.tool.title ?? entry.tool.annotations?.title;
  return {
    name: entry.tool.name,
    ...(title ? { title } : {}),
    description: oneLine(entry.tool.description ?? ""),
    server: entry.server,
    effect: entry.effect,
  };
}

const ONE_LINE_MAX = 200;

/** A description's first line, cut to ONE_LINE_MAX characters. */
function oneLine(text: string): string {
  const first = text.trim().split("\n", 1)[0]?.trim() ?? "";
  return first.length > ONE_LINE_MAX ? `${first.slice(0, ONE_LINE_MAX - 1)}…` : first;
}

function serversOf(tools: DiscoverableTool[]) {
  const servers = new Map<string, { name: string; status: string; tools: number }>();
  for (const entry of tools) {
    const server = servers.get(entry.server) ?? {
      name: entry.server,
      status: entry.governed.serverStatus,
      tools: 0,
    };
    server.tools++;
    servers.set(entry.server, server);
  }
  return [...servers.values()].sort((a, b) => a.name.localeCompare(b.name));
}

const json = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
});

const toolError = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

const unknownTool = (name: string) =>
  toolError(
    `No tool named "${name.length > 100 ? `${name.slice(0, 99)}…` : name}" is available to you. ` +
      `Find tools by what they do with ${SEARCH_TOOLS_TOOL}.`,
  );

function invalid(tool: string, error: z.ZodError): CallToolResult {
  const problems = error.issues.map((issue) =>
    issue.code === "unrecognized_keys"
      ? `${issue.keys.join(", ")} ${issue.keys.length === 1 ? "is not an argument" : "are not arguments"} of ${tool}`
      : issue.message,
  );
  return toolError(`${tool} was not run: ${problems.join("; ")}`);
}
