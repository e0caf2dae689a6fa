import type { Command } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError } from "../errors";
import { print, printJson, renderTable } from "../output";
import type { EffectClass, ToolWire } from "../wire-types";
import { registerClassify } from "./tools-classify";

/** The catalog across servers and how each tool is governed (GET/PATCH /api/v1/tools). */
export function registerTools(program: Command): void {
  const tools = program.command("tools").description("the tools of all servers, and their effect classes");

  withJsonOption(tools.command("list").description("list tools across servers with their enforced effect"))
    .option("--server <name>", "only this server's tools")
    .option("-q, --search <text>", "only tools whose name or description contains this")
    .action(async (options: { server?: string; search?: string }, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const rows = (await listTools(client, options.search)).filter(
        (tool) => !options.server || tool.serverName === options.server,
      );
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

  registerClassify(tools, (client) => listTools(client));
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

export async function listTools(client: ApiClient, search?: string): Promise<ToolWire[]> {
  const body = await client.get<{ tools: ToolWire[] }>("/api/v1/tools", { q: search });
  return body.tools;
}

/** A tool by gateway name or id; the PATCH route takes the id. */
async function findTool(client: ApiClient, name: string): Promise<ToolWire> {
  const tools = await listTools(client);
  const tool = tools.find((t) => t.id === name || t.gatewayName === name);
  if (!tool) throw new CliError(`There is no tool "${name}". See switchboard tools list.`);
  return tool;
}

const enforcedEffect = (tool: ToolWire): EffectClass =>
  tool.enforcedEffect ?? tool.effect ?? "external-write";
