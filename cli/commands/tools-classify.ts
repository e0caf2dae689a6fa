import { type Command, Option } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError } from "../errors";
import { print, printJson } from "../output";
import type { ToolWire } from "../wire-types";

/**
 * `switchboard tools classify`: one tool (`classify <tool> <effect>`), or many at once
 * (`classify --server <s> --effect read <tools…>`, one all-or-nothing PATCH /api/v1/tools).
 */

const effects = ["read", "write", "external-write", "destructive", "unclassified"] as const;
type Effect = (typeof effects)[number];
type ClassifyOptions = {
  server?: string;
  effect?: Effect;
  approval?: string;
  enable?: boolean;
  disable?: boolean;
};

export function registerClassify(
  tools: Command,
  /** every tool, or only `server`'s */
  listTools: (client: ApiClient, server: string | undefined) => Promise<ToolWire[]>,
): void {
  withJsonOption(
    tools
      .command("classify")
      .description(
        "set the effect class of one tool, or of many with --effect (what policy and approvals act on)",
      )
      .argument(
        "<tools...>",
        "<tool> <effect>, or with --effect: the tools (gateway names, ids, or names on --server)",
      )
      .addOption(
        new Option(
          "--effect <effect>",
          "classify every tool given; unclassified = enforced as external-write",
        ).choices(effects),
      )
      .option("--server <name>", "the tools are this server's (names as the server gives them)")
      .addOption(
        new Option("--approval <rule>", "when calls need approval").choices(["by-effect", "always", "never"]),
      )
      .option("--enable", "allow calls to the tools")
      .option("--disable", "refuse calls to the tools"),
  ).action(async (args: string[], options: ClassifyOptions, command: Command) => {
    const { client, json } = contextOf(command);
    const { names, effect } = splitArguments(args, options.effect);
    const catalog = await listTools(client, options.server);
    const targets = names.map((name) => findTool(catalog, name, options.server));
    const patch = {
      effect: effect === "unclassified" ? null : effect,
      ...(options.approval ? { approvalRule: options.approval } : {}),
      ...(options.enable ? { enabled: true } : options.disable ? { enabled: false } : {}),
    };
    const saved =
      targets.length === 1 && !options.effect
        ? [
            (await client.patch<{ tool: ToolWire }>(`/api/v1/tools/${segment(targets[0]?.id ?? "")}`, patch))
              .tool,
          ]
        : (
            await client.patch<{ tools: ToolWire[] }>("/api/v1/tools", {
              changes: targets.map((tool) => ({ id: tool.id, ...patch })),
            })
          ).tools;
    if (json) return printJson(options.effect ? saved : saved[0]);
    const approval = options.approval ? `, approval ${options.approval}` : "";
    for (const tool of saved) print(`${tool.gatewayName}: effect ${effect}${approval}.`);
  });
}

function splitArguments(args: string[], effect: Effect | undefined): { names: string[]; effect: Effect } {
  if (effect) return { names: [...new Set(args)], effect };
  const [name, given, ...rest] = args;
  if (!name || !given || rest.length > 0)
    throw new CliError(
      "Give one tool and its effect (classify <tool> <effect>), or --effect and the tools (classify --effect read <tools…>).",
    );
  if (!(effects as readonly string[]).includes(given))
    throw new CliError(`"${given}" is not an effect: use ${effects.join(", ")}.`);
  return { names: [name], effect: given as Effect };
}

/** By id or gateway name; with --server, also by the server's own tool name, on that server only. */
function findTool(catalog: ToolWire[], name: string, server: string | undefined): ToolWire {
  const tool = catalog.find(
    (t) =>
      (server === undefined || t.serverName === server) &&
      (t.id === name || t.gatewayName === name || (server !== undefined && t.name === name)),
  );
  if (tool) return tool;
  const where = server ? ` on server "${server}"` : "";
  throw new CliError(`There is no tool "${name}"${where}; nothing was changed. See switchboard tools list.`);
}
