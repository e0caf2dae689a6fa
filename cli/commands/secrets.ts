import type { Command } from "commander";
import { segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { usageError } from "../errors";
import { formatTime, print, printJson, renderTable } from "../output";
import { readSecret } from "../prompt";

type SecretSummary = { name: string; createdAt: string; updatedAt: string };

/** Stored secrets: names only come back; a value goes in once and is never read out. */
export function registerSecrets(program: Command): void {
  const secrets = program
    .command("secrets")
    .description("store secrets that servers reference (values are write-only)");

  withJsonOption(secrets.command("list").description("list secret names (never values)")).action(
    async (_options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const { secrets: rows } = await client.get<{ secrets: SecretSummary[] }>("/api/v1/secrets");
      if (json) return printJson(rows);
      if (rows.length === 0) return print("No secrets yet.");
      print(
        renderTable(
          rows,
          [
            { header: "Name", value: (s) => s.name },
            { header: "Updated", value: (s) => formatTime(s.updatedAt) },
          ],
          colors,
        ),
      );
    },
  );

  secrets
    .command("set")
    .description("store a secret: typed hidden, or piped on stdin (not as an argument: shells keep history)")
    .argument("<name>", "secret name, e.g. github-token")
    .action(async (name: string, _options, command: Command) => {
      const { client } = contextOf(command);
      const value = await readSecret(`Value for ${name}: `);
      if (!value) throw usageError("The value is empty; nothing stored.");
      await client.put(`/api/v1/secrets/${segment(name)}`, { value });
      print(`Stored secret ${name}.`);
    });

  secrets
    .command("remove")
    .description("delete a secret (servers that reference it can no longer connect)")
    .argument("<name>", "secret name")
    .action(async (name: string, _options, command: Command) => {
      const { client } = contextOf(command);
      await client.delete(`/api/v1/secrets/${segment(name)}`);
      print(`Removed secret ${name}.`);
    });
}
