import type { Command } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { usageError } from "../errors";
import { formatTime, note, print, printJson, renderTable } from "../output";
import { confirmedOrYes } from "../prompt";
import type { ApiKeyWire } from "../wire-types";
import { pickActiveKey } from "./key-ref";

const scopes = ["admin", "owner"] as const;

/** The workspace's API keys: what scripts, CI and this CLI sign in with (Settings → API keys). */
export function registerKeys(program: Command): void {
  const keys = program
    .command("keys")
    .description("the workspace's API keys for scripts, CI and this CLI (agents' keys: principals keys)");

  withJsonOption(
    keys.command("list").description("every key of the workspace, revoked ones included"),
  ).action(async (_options, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const rows = await listKeys(client);
    if (json) return printJson(rows);
    if (rows.length === 0) return print("No API keys yet. Create one with switchboard keys create <name>.");
    print(
      renderTable(
        rows,
        [
          { header: "Name", value: (k) => k.name },
          { header: "Prefix", value: (k) => `${k.prefix}…` },
          { header: "Scopes", value: (k) => k.scopes.join(", ") },
          {
            header: "Of",
            value: (k) => (k.principalId ? `agent ${k.principalName ?? k.principalId}` : "the workspace"),
          },
          { header: "Last used", value: (k) => formatTime(k.lastUsedAt) },
          { header: "Revoked", value: (k) => formatTime(k.revokedAt) },
        ],
        colors,
      ),
    );
  });

  withJsonOption(
    keys
      .command("create")
      .description("create a key; its value is printed once")
      .argument("<name>", "what it is for, e.g. ci-deploy")
      .option(
        "--scope <scope>",
        "admin (the REST API and this CLI) or owner (instance settings; instance owners only); repeat for several (default: admin). Agents use a principal's key: principals keys <p> --create",
        (value: string, previous: string[] = []) => [...previous, value],
      ),
  ).action(async (name: string, options: { scope?: string[] }, command: Command) => {
    const { client, json } = contextOf(command);
    const chosen = options.scope ?? ["admin"];
    const unknown = chosen.filter((s) => !(scopes as readonly string[]).includes(s));
    if (unknown.length > 0) {
      throw usageError(
        unknown[0] === "gateway"
          ? "The gateway scope belongs to a principal's key: switchboard principals keys <principal> --create."
          : `Unknown scope "${unknown[0]}": use admin or owner.`,
      );
    }
    const body = await client.post<{ key: string; apiKey: ApiKeyWire }>("/api/v1/api-keys", {
      name,
      scopes: chosen,
    });
    if (json) return printJson(body);
    print(body.key);
    note(`This is ${body.apiKey.name} (${body.apiKey.scopes.join(", ")}), shown once; store it now.`);
  });

  keys
    .command("revoke")
    .description("revoke a key: anything using it gets 401 from its next request")
    .argument("<key>", "the key's name, prefix or id (see keys list)")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (ref: string, options: { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const key = pickActiveKey(await listKeys(client), ref, {
        owner: "the workspace",
        listCommand: "switchboard keys list",
      });
      const question = `Revoke the key "${key.name}" (${key.prefix}…)? Anything using it stops at once.`;
      if (!(await confirmedOrYes(question, options))) return print("Nothing revoked.");
      await client.delete(`/api/v1/api-keys/${segment(key.id)}`);
      print(`Revoked ${key.name} (${key.prefix}…).`);
    });
}

async function listKeys(client: ApiClient): Promise<ApiKeyWire[]> {
  return (await client.get<{ apiKeys: ApiKeyWire[] }>("/api/v1/api-keys")).apiKeys;
}
