import { type Command, InvalidArgumentError, Option } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError } from "../errors";
import { print, printJson, renderTable } from "../output";
import type { EffectClass, ToolFiltersWire, ToolWire } from "../wire-types";
import { listTools } from "./tool-pages";
import { registerClassify } from "./tools-classify";

const effectFilters = ["read", "write", "external-write", "destructive", "unclassified"] as const;
const statusFilters = ["enabled", "disabled", "quarantined"] as const;
type ListOptions = Omit<ToolFiltersWire, "q"> & { search?: string; limit?: number };

/** The catalog across servers and how each tool is governed (GET/PATCH /api/v1/tools). */
export function registerTools(program: Command): void {
  const tools = program.command("tools").description("the tools of all servers, and their effect classes");

  withJsonOption(
    tools.command("list").description("list tools across servers with their enforced effect (every page)"),
  )
    .option("--server <name>", "only this server's tools")
    .option("-q, --search <text>", "only tools whose name, server, title or description contains this")
    .addOption(
      new Option("--effect <effect>", "only tools classified so (unclassified: not yet)").choices(
        effectFilters,
      ),
    )
    .addOption(
      new Option("--status <status>", "only enabled, disabled or quarantined tools").choices(statusFilters),
    )
    .option("--limit <n>", "at most this many tools (default: all of them)", parseCount)
    .action(async (options: ListOptions, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const { search: q, server, effect, status } = options;
      const rows = await listTools(client, { q, server, effect, status }, options.limit);
      if (json) return printJson(rows);
      if (rows.length === 0) return print("No tools found.");
      print(
        renderTable(
          rows,
          [
            { header: "Tool", value: (t) => t.gatewayName },
            {
              header: "Effect",
              value: (t) => `${enforcedEffect(t)}${t.effect === null ? " (unclassified)" : ""}`,
              style: (text, t) => (enforcedEffect(t) === "read" ? colors.green(text) : colors.yellow(text)),
            },
            { header: "Approval", value: (t) => t.approvalRule ?? "" },
            { header: "Enabled", value: (t) => (t.enabled === false ? "no" : "yes") },
            {
              header: "Quarantine",
              value: (t) =>
                t.quarantine
                  ? "refused"
                  : t.isQuarantineSuggested
                    ? `suggested (${t.recentCrashes} crashes)`
                    : "",
              style: (text) => colors.red(text),
            },
            { header: "Description", value: (t) => t.title ?? t.description ?? "", max: 50 },
          ],
          colors,
        ),
      );
    });

  registerQuarantine(tools);

  registerClassify(tools, (client, server) => listTools(client, { server }));
}

function registerQuarantine(tools: Command): void {
  withJsonOption(
    tools
      .command("quarantine")
      .description("refuse every call of a tool until it is reviewed (e.g. one that crashes its server)")
      .argument("<tool>", "gateway name (server__tool) or id")
      .option("--reason <text>", "why, shown with every refusal"),
  ).action(async (name: string, options: { reason?: string }, command: Command) => {
    const { client, json } = contextOf(command);
    const tool = await findTool(client, name);
    const updated = await patchTool(client, tool, {
      quarantined: true,
      ...(options.reason ? { quarantineReason: options.reason } : {}),
    });
    if (json) return printJson(updated);
    print(`${updated.gatewayName}: quarantined; every call is refused until it is reviewed and cleared.`);
  });

  withJsonOption(
    tools
      .command("clear-quarantine")
      .description("after reviewing a quarantined tool, allow calls again (recorded in the audit log)")
      .argument("<tool>", "gateway name (server__tool) or id"),
  ).action(async (name: string, _options: unknown, command: Command) => {
    const { client, json } = contextOf(command);
    const updated = await patchTool(client, await findTool(client, name), { quarantined: false });
    if (json) return printJson(updated);
    print(`${updated.gatewayName}: quarantine cleared; calls are allowed again.`);
  });
}

async function patchTool(
  client: ApiClient,
  tool: ToolWire,
  patch: Record<string, unknown>,
): Promise<ToolWire> {
  const body = await client.patch<{ tool: ToolWire }>(`/api/v1/tools/${segment(tool.id)}`, patch);
  return body.tool;
}

/** A tool by gateway name or id; the PATCH route takes the id. */
async function findTool(client: ApiClient, name: string): Promise<ToolWire> {
  // The search narrows to tools whose names contain it; the exact name is picked from those.
  const named = (await listTools(client, { q: name })).find((t) => t.gatewayName === name);
  if (named) return named;
  try {
    return (await client.get<{ tool: ToolWire }>(`/api/v1/tools/${segment(name)}`)).tool;
  } catch (error) {
    if (error instanceof CliError && error.status === 404)
      throw new CliError(`There is no tool "${name}". See switchboard tools list.`);
    throw error;
  }
}

function parseCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`expected a whole number of tools, 1 or more, got "${value}".`);
  return Number(value);
}

const enforcedEffect = (tool: ToolWire): EffectClass =>
  tool.enforcedEffect ?? tool.effect ?? "external-write";
