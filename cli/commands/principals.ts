import type { Command } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError, usageError } from "../errors";
import { formatTime, note, print, printJson, renderTable } from "../output";
import { confirmedOrYes } from "../prompt";
import type { PrincipalWire } from "../wire-types";
import { pickActiveKey } from "./key-ref";

/** Agents and MCP clients: who they are, their gateway keys, and which tools they may call. */
export function registerPrincipals(program: Command): void {
  const principals = program
    .command("principals")
    .description("agents and MCP clients, their keys and grants");

  withJsonOption(
    principals.command("list").description("principals with their grants and key counts"),
  ).action(async (_options, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const rows = await listPrincipals(client);
    if (json) return printJson(rows);
    if (rows.length === 0)
      return print("No principals yet. Create one with switchboard principals create <name>.");
    print(
      renderTable(
        rows,
        [
          { header: "Name", value: (p) => p.name },
          { header: "Id", value: (p) => p.id },
          {
            header: "Grants",
            value: (p) => (p.grants ?? []).join(" ") || "(none: may call nothing)",
            max: 50,
          },
          { header: "Keys", value: (p) => String((p.keys ?? []).filter((k) => !k.revokedAt).length) },
        ],
        colors,
      ),
    );
  });

  withJsonOption(
    principals
      .command("create")
      .description("add an agent or MCP client (it may call nothing until granted)"),
  )
    .argument("<name>", "e.g. claude-code or ci.deploy")
    .option("--description <text>", "what it is")
    .action(async (name: string, options: { description?: string }, command: Command) => {
      const { client, json } = contextOf(command);
      const body = await client.post<{ principal: PrincipalWire }>("/api/v1/principals", {
        name,
        ...(options.description ? { description: options.description } : {}),
      });
      if (json) return printJson(body.principal);
      print(`Created principal ${body.principal.name} (${body.principal.id}).`);
      print(
        `Next: switchboard principals grant ${name} '<server>__*'  and  switchboard principals keys ${name} --create`,
      );
    });

  withJsonOption(principals.command("keys").description("list a principal's gateway keys, or --create one"))
    .argument("<principal>", "name or id")
    .option("--create", "create a new key (shown once)")
    .option("--name <name>", "the new key's name", "cli")
    .action(async (ref: string, options: { create?: boolean; name: string }, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const principal = await findPrincipal(client, ref);
      if (options.create) {
        const body = await client.post<{ key: string }>(`/api/v1/principals/${segment(principal.id)}/keys`, {
          name: options.name,
        });
        if (json) return printJson(body);
        print(body.key);
        note("This key is shown once; store it now. Send it as Authorization: Bearer <key> to /mcp.");
        return;
      }
      const keys = principal.keys ?? [];
      if (json) return printJson(keys);
      if (keys.length === 0) return print(`${principal.name} has no keys. Create one with --create.`);
      print(
        renderTable(
          keys,
          [
            { header: "Name", value: (k) => k.name },
            { header: "Prefix", value: (k) => `${k.prefix}…` },
            { header: "Last used", value: (k) => formatTime(k.lastUsedAt) },
            { header: "Revoked", value: (k) => formatTime(k.revokedAt) },
          ],
          colors,
        ),
      );
    });

  withJsonOption(
    principals
      .command("grant")
      .description("let a principal call tools: patterns `*`, `<server>__*` or `<server>__<tool>`")
      .argument("<principal>", "name or id")
      .argument("[patterns...]", "tool patterns to add")
      .option("--revoke", "remove the given patterns instead of adding them")
      .option("--replace", "make the given patterns the whole list"),
  ).action(
    async (
      ref: string,
      patterns: string[],
      options: { revoke?: boolean; replace?: boolean },
      command: Command,
    ) => {
      const { client, json } = contextOf(command);
      if (patterns.length === 0 && !options.replace)
        throw usageError("Give at least one pattern, e.g. 'github__*'.");
      const principal = await findPrincipal(client, ref);
      const current = principal.grants ?? [];
      const next = options.replace
        ? patterns
        : options.revoke
          ? current.filter((p) => !patterns.includes(p))
          : [...new Set([...current, ...patterns])];
      const body = await client.put<{ grants?: string[]; patterns?: string[]; principal?: PrincipalWire }>(
        `/api/v1/principals/${segment(principal.id)}/grants`,
        { patterns: next },
      );
      if (json) return printJson(body);
      const granted = body.grants ?? body.patterns ?? body.principal?.grants ?? next;
      print(`${principal.name} may call: ${granted.length > 0 ? granted.join(" ") : "nothing"}`);
    },
  );

  principals
    .command("remove")
    .description("delete a principal: its keys stop working at once, its grants go; its calls stay")
    .argument("<principal>", "name or id")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (ref: string, options: { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const principal = await findPrincipal(client, ref);
      const question = `Delete the principal "${principal.name}"? Its keys stop working at once.`;
      if (!(await confirmedOrYes(question, options))) return print("Nothing deleted.");
      await client.delete(`/api/v1/principals/${segment(principal.id)}`);
      print(`Deleted ${principal.name}.`);
    });

  principals
    .command("revoke")
    .description("revoke one of a principal's gateway keys: anything using it stops at once")
    .argument("<principal>", "name or id")
    .argument("<key>", "the key's name or prefix (see principals keys)")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (ref: string, keyRef: string, options: { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const principal = await findPrincipal(client, ref);
      const key = pickActiveKey(principal.keys ?? [], keyRef, {
        owner: principal.name,
        listCommand: `switchboard principals keys ${principal.name}`,
      });
      if (
        !(await confirmedOrYes(
          `Revoke the key "${key.name}" (${key.prefix}…) of ${principal.name}?`,
          options,
        ))
      )
        return print("Nothing revoked.");
      await client.delete(`/api/v1/principals/${segment(principal.id)}/keys/${segment(key.id)}`);
      print(`Revoked ${key.name} (${key.prefix}…).`);
    });
}

async function listPrincipals(client: ApiClient): Promise<PrincipalWire[]> {
  return (await client.get<{ principals: PrincipalWire[] }>("/api/v1/principals")).principals;
}

export async function findPrincipal(client: ApiClient, ref: string): Promise<PrincipalWire> {
  const principal = (await listPrincipals(client)).find((p) => p.id === ref || p.name === ref);
  if (!principal) throw new CliError(`There is no principal "${ref}". See switchboard principals list.`);
  return principal;
}
