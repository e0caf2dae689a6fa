import type { Command } from "commander";
import { segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { type Colors, formatTime, print, printJson, renderFields } from "../output";
import { confirmedOrYes } from "../prompt";
import type { ConnectWire, DisconnectWire, OAuthStandingWire, OAuthStatusWire } from "../wire-types";

const oauthPath = (name: string, part = "") => `/api/v1/servers/${segment(name)}/oauth${part}`;

const registrations: Record<NonNullable<OAuthStatusWire["registration"]>, string> = {
  metadata_document: "client ID metadata document",
  dynamic: "dynamic registration",
  manual: "client ID entered by an admin",
};

/**
 * Servers that need OAuth: the sign-in happens in a browser (the server's own consent page), so
 * `connect` only hands out the URL to open; the callback lands on Switchboard, not on this CLI.
 */
export function registerServerOAuth(servers: Command): void {
  withJsonOption(
    servers
      .command("connect")
      .description("sign Switchboard in to an OAuth server: prints the URL to open in a browser"),
  )
    .argument("<name>", "server name")
    .option("--scope <scope>", "ask for this scope too (when the server said one is missing)")
    .action(async (name: string, options: { scope?: string }, command: Command) => {
      const { client, json } = contextOf(command);
      const result = await client.post<ConnectWire>(
        oauthPath(name, "/connect"),
        options.scope ? { scope: options.scope } : {},
      );
      if (json) return printJson(result);
      print(`Open this URL in a browser where you are signed in to Switchboard:\n${result.authorizationUrl}`);
    });

  withJsonOption(
    servers
      .command("disconnect")
      .description("delete Switchboard's OAuth tokens for a server (revoked where the server supports it)"),
  )
    .argument("<name>", "server name")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (name: string, options: { yes?: boolean }, command: Command) => {
      const { client, json } = contextOf(command);
      if (
        !(await confirmedOrYes(
          `Disconnect ${name}? Its tool calls fail until an admin connects it again.`,
          options,
        ))
      )
        return print("Nothing changed.");
      const result = await client.delete<DisconnectWire>(oauthPath(name));
      if (json) return printJson(result);
      print(
        result.revoked
          ? `Disconnected ${name}: its tokens are deleted and revoked at the server.`
          : `Disconnected ${name}: its tokens are deleted (the server offers no revocation).`,
      );
    });

  withJsonOption(
    servers.command("auth-status").description("show whether Switchboard is signed in to an OAuth server"),
  )
    .argument("<name>", "server name")
    .action(async (name: string, _options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const { oauth } = await client.get<OAuthStandingWire>(oauthPath(name));
      if (json) return printJson(oauth);
      print(renderFields(describeOAuth(oauth, colors), colors));
      if (oauth.status !== "connected" || oauth.neededScope) {
        const scope = oauth.neededScope ? ` --scope ${oauth.neededScope}` : "";
        print(`\nConnect it: switchboard servers connect ${name}${scope}`);
      }
    });
}

function describeOAuth(oauth: OAuthStatusWire, colors: Colors): Array<[string, string | string[]]> {
  const status =
    oauth.status === "connected"
      ? colors.green("connected")
      : oauth.status === "needs_authorization"
        ? colors.yellow("needs authorization")
        : colors.dim("not connected");
  const problem = oauth.problem
    ? `${oauth.problem.step}${oauth.problem.status !== null ? ` (HTTP ${oauth.problem.status})` : ""}: ${oauth.problem.message} (${formatTime(oauth.problem.at)})`
    : "";
  return [
    ["Status", status],
    ["Registration", oauth.registration ? registrations[oauth.registration] : ""],
    ["Issuer", oauth.issuer ?? ""],
    ["Scopes", oauth.scopes.join(" ")],
    ["Needs scope", oauth.neededScope ?? ""],
    ["Token expires", oauth.expiresAt ? `${formatTime(oauth.expiresAt)} (renews automatically)` : ""],
    [
      "Connected",
      oauth.connectedAt
        ? `${formatTime(oauth.connectedAt)}${oauth.connectedBy ? ` by ${oauth.connectedBy}` : ""}`
        : "",
    ],
    ["Last problem", problem],
  ];
}
