import type { Command } from "commander";
import { segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { type Colors, formatTime, print, printJson, renderFields, renderTable, statusColor } from "../output";
import { confirmedOrYes } from "../prompt";
import type { ServerWire, ValueViewWire } from "../wire-types";
import { registerServerAdd } from "./server-add";
import { registerServerInspection } from "./server-inspection";
import { registerServerOAuth } from "./server-oauth";

const serverPath = (name: string, part = "") => `/api/v1/servers/${segment(name)}${part}`;

export function registerServers(program: Command): void {
  const servers = program
    .command("servers")
    .description("register, inspect and operate MCP servers")
    .addHelpText(
      "after",
      `
Examples:
  $ switchboard servers list
  $ switchboard servers add github --env-secret GITHUB_TOKEN=github-token -- npx -y @modelcontextprotocol/server-github
  $ switchboard servers add docs https://mcp.example.com/mcp --bearer-secret docs-token
  $ switchboard servers diagnostics github
  $ switchboard servers connect linear`,
    );

  withJsonOption(
    servers.command("list").description("list the workspace's servers with their status"),
  ).action(async (_options, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const { servers: rows } = await client.get<{ servers: ServerWire[] }>("/api/v1/servers");
    if (json) return printJson(rows);
    if (rows.length === 0)
      return print("No servers yet. Add one with `switchboard servers add` or `switchboard import`.");
    print(
      renderTable(
        rows,
        [
          { header: "Name", value: (s) => s.name },
          { header: "Transport", value: (s) => s.transport },
          { header: "Status", value: (s) => s.status, style: (text) => statusColor(text, colors) },
          { header: "Target", value: (s) => s.target, max: 70 },
        ],
        colors,
      ),
    );
  });

  withJsonOption(servers.command("show").description("show one server's configuration and status"))
    .argument("<name>", "server name")
    .action(async (name: string, _options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const { server } = await client.get<{ server: ServerWire }>(serverPath(name));
      if (json) return printJson(server);
      print(renderFields(describeServer(server, colors), colors));
    });

  registerServerAdd(servers);

  servers
    .command("remove")
    .description("delete a server (its configuration and catalog; secrets are kept)")
    .argument("<name>", "server name")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (name: string, options: { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!(await confirmedOrYes(`Remove the server "${name}"? Agents lose its tools.`, options)))
        return print("Nothing removed.");
      await client.delete(serverPath(name));
      print(`Removed ${name}.`);
    });

  for (const [verb, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    withJsonOption(
      servers
        .command(verb)
        .description(
          enabled
            ? "enable a server (Switchboard connects to it)"
            : "disable a server (its process is stopped)",
        ),
    )
      .argument("<name>", "server name")
      .action(async (name: string, _options, command: Command) => {
        const { client, json } = contextOf(command);
        const { server } = await client.patch<{ server: ServerWire }>(serverPath(name), { enabled });
        if (json) return printJson(server);
        print(`${server.name} is ${enabled ? "enabled" : "disabled"}.`);
      });
  }

  registerServerInspection(servers);
  registerServerOAuth(servers);
}

function describeValue(value: ValueViewWire): string {
  if (typeof value === "string") return value;
  const set = value.isSet ? "set" : "not set";
  return "secret" in value ? `secret ${value.secret} (${set})` : `env ${value.fromEnv} (${set})`;
}

function describeAuth(auth: ServerWire["auth"]): string | string[] {
  if (auth.type === "oauth") {
    return [
      `oauth${auth.clientId ? ` (client ID ${auth.clientId})` : " (Switchboard registers itself)"}`,
      ...(auth.clientSecret ? [`client secret: ${describeValue(auth.clientSecret)}`] : []),
      ...(auth.scopes?.length ? [`scopes: ${auth.scopes.join(" ")}`] : []),
      "sign-in: switchboard servers auth-status / connect",
    ];
  }
  return auth.credential
    ? `${auth.type}${auth.headerName ? ` (${auth.headerName})` : ""}: ${describeValue(auth.credential)}`
    : auth.type;
}

function describeServer(server: ServerWire, colors: Colors): Array<[string, string | string[]]> {
  const pairs = (record: Record<string, ValueViewWire>) =>
    Object.entries(record).map(([key, value]) => `${key}=${describeValue(value)}`);
  const connection: Array<[string, string | string[]]> =
    server.transport === "stdio"
      ? [
          ["Command", [server.command ?? "", ...server.args].join(" ")],
          ["Program", server.programPath ?? ""],
          [
            "Launch",
            server.launchApprovedByOwner ? "saved by an instance owner" : "saved by a workspace admin",
          ],
          ["Working dir", server.cwd ?? ""],
          ["Env", pairs(server.env)],
        ]
      : [
          ["URL", server.url ?? ""],
          ["Headers", pairs(server.headers)],
          ["Auth", describeAuth(server.auth)],
        ];
  return [
    ["Name", server.name],
    ["Display name", server.displayName ?? ""],
    ["Description", server.description ?? ""],
    ["Transport", server.transport],
    ["Enabled", server.enabled ? "yes" : "no"],
    ["Status", statusColor(server.status, colors)],
    // Only where there is more than one replica to speak of (servers diagnostics lists each).
    ...(server.replicaSummary.of > 1
      ? [
          ["Replicas", `ready on ${server.replicaSummary.ready} of ${server.replicaSummary.of} live`] as [
            string,
            string,
          ],
        ]
      : []),
    ["Last error", server.lastError ?? ""],
    ...connection,
    [
      "Timeouts",
      `connect ${server.connectTimeoutMs} ms · call ${server.callTimeoutMs} ms · health every ${server.healthIntervalSeconds} s`,
    ],
    ["Updated", formatTime(server.updatedAt)],
  ];
}
