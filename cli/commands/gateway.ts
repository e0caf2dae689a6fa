import type { Command } from "commander";
import type { ApiClient } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { note, print, printJson, renderTable } from "../output";
import type { GatewaySettingsWire } from "../wire-types";
import { findPrincipal } from "./principals";

/** Settings → Gateway from the terminal: where MCP clients connect, the loopback mapping, the name budget. */

type GatewayWire = GatewaySettingsWire;
/** What a PUT of the settings answers: the settings alone. */
type SettingsWire = Pick<GatewayWire, "settings">;

export function registerGateway(program: Command): void {
  const gateway = program
    .command("gateway")
    .description("the MCP gateway: URLs, state, loopback mapping, tool name budget");

  withJsonOption(
    gateway.command("status").description("whether the gateway is on, its URLs, the mapping"),
  ).action(async (_options: unknown, command: Command) => {
    const { client, json } = contextOf(command);
    const body = await readGateway(client);
    if (json) return printJson(body);
    const { settings, gateway: state, toolLists } = body;
    print(`Gateway        ${state.isEnabled ? "on" : "off (SWITCHBOARD_MCP_ENABLED=false)"}`);
    print(`All tools      ${state.url}`);
    print(`Discovery      ${state.discoverUrl}`);
    print(`One server     ${state.serverUrlTemplate}`);
    print(`Approval wait  ${state.approvalWaitSeconds} s`);
    print(`Without a key  ${describeMapping(settings)}`);
    print(`Name budget    ${settings.gatewayNameBudget} characters`);
    if (toolLists.principals.length > 0) {
      print("");
      print(
        renderTable(toolLists.principals, [
          { header: "Principal", value: (p) => p.name },
          { header: "Tools", value: (p) => String(p.tools) },
          { header: "tools/list on /mcp", value: (p) => kib(p.fullBytes) },
          { header: "on /mcp/discover", value: () => kib(toolLists.discoverBytes) },
        ]),
      );
    }
    note(`Connect Claude Code: ${state.claudeCommand}`);
    note(`In discovery mode (for thousands of tools): ${state.discoverClaudeCommand}`);
  });

  withJsonOption(
    gateway
      .command("loopback")
      .description("let requests without a key act as a principal (local installs only), or turn it off")
      .argument("<principal|off>", "principal name or id, or off"),
  ).action(async (ref: string, _options: unknown, command: Command) => {
    const { client, json } = contextOf(command);
    const loopbackPrincipalId = ref === "off" ? null : (await findPrincipal(client, ref)).id;
    const body = await client.put<SettingsWire>("/api/v1/settings/gateway", { loopbackPrincipalId });
    if (json) return printJson(body.settings);
    print(`Without a key: ${describeMapping(body.settings)}`);
  });

  registerNameBudget(gateway);
}

function registerNameBudget(gateway: Command): void {
  withJsonOption(
    gateway
      .command("name-budget")
      .description(
        "the longest tool name /mcp hands out (32–64; 46 fits Claude Code's mcp__switchboard__ prefix within 64); renames tools that no longer fit",
      )
      .argument("<characters>", "a whole number from 32 to 64"),
  ).action(async (characters: string, _options: unknown, command: Command) => {
    const { client, json } = contextOf(command);
    // Sent as typed when it is not a number: the server's message says what is allowed.
    const gatewayNameBudget = /^\d+$/.test(characters) ? Number(characters) : characters;
    const body = await client.put<SettingsWire>("/api/v1/settings/gateway/name-budget", {
      gatewayNameBudget,
    });
    if (json) return printJson(body.settings);
    print(`Gateway names: at most ${body.settings.gatewayNameBudget} characters`);
    note("Tools that no longer fit were renamed; grants of their exact names followed.");
  });
}

function readGateway(client: ApiClient): Promise<GatewayWire> {
  return client.get<GatewayWire>("/api/v1/settings/gateway");
}

function describeMapping(settings: GatewayWire["settings"]): string {
  if (!settings.loopbackPrincipal) {
    return settings.isLoopbackHeldElsewhere
      ? "refused (another workspace maps loopback requests)"
      : "refused (401)";
  }
  const who = settings.loopbackPrincipal.name;
  return settings.canMapLoopback
    ? `acts as ${who} — every local process can call as ${who}`
    : `ignored: ${settings.loopbackUnavailableReason ?? "not listening on loopback only"}`;
}

/** A size in KiB, one decimal: tools/list sizes from a few KiB to megabytes. */
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
