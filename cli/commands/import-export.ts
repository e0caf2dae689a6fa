import fs from "node:fs";
import { type Command, Option } from "commander";
import { contextOf, withJsonOption } from "../context";
import { CliError, usageError } from "../errors";
import { type Colors, note, print, printJson, renderTable } from "../output";
import { readInput } from "../prompt";
import { withSpinner } from "../spinner";
import type { ClientExportWire, ImportEntryWire, ImportReportWire } from "../wire-types";

const clientFormats = ["claude-desktop", "claude-code", "cursor", "vscode"];

/** mcpServers JSON in (POST /api/v1/servers/import) and out (GET /api/v1/servers/export). */
export function registerImportExport(program: Command): void {
  withJsonOption(
    program
      .command("import")
      .description("register the servers of a Claude Desktop, Claude Code, Cursor or VS Code configuration")
      .argument("<file>", "the configuration file, or - for stdin")
      .addOption(
        new Option("--format <format>", "the file's format")
          .choices(["auto", ...clientFormats])
          .default("auto"),
      )
      .option("--dry-run", "show what would change and write nothing")
      .addHelpText(
        "after",
        `
Values under names containing TOKEN, KEY, SECRET, PASSWORD or AUTH (and Authorization headers)
are stored as secrets and referenced; the report names them, never shows them. Servers that
exist are updated, so importing again changes nothing. Exit code 1 if any entry failed.

Examples:
  $ switchboard import ~/Library/Application\\ Support/Claude/claude_desktop_config.json --dry-run
  $ switchboard import .mcp.json`,
      ),
  ).action(async (file: string, options: { format: string; dryRun?: boolean }, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const text = await readInput(file);
    const { report } = await withSpinner(options.dryRun ? "Checking…" : "Importing…", () =>
      client.post<{ report: ImportReportWire }>("/api/v1/servers/import", {
        config: text,
        format: options.format,
        dryRun: Boolean(options.dryRun),
      }),
    );
    if (json) printJson(report);
    else printReport(report, colors);
    if (report.summary.error > 0) {
      throw new CliError(
        `${report.summary.error} of ${report.entries.length} entries could not be imported.`,
      );
    }
  });

  withJsonOption(
    program
      .command("export")
      .description("print a client configuration that reaches every tool through the Switchboard gateway")
      .addOption(new Option("--format <format>", "the client").choices(clientFormats).makeOptionMandatory())
      .option("--principal <name>", "limit Claude Code permissions to what this principal is granted")
      .option("--permissions", "claude-code: print the .claude/settings.json permissions instead")
      .option("-o, --output <file>", "write to this file instead of stdout")
      .addHelpText(
        "after",
        `
The configuration holds a placeholder, never a key: \${SWITCHBOARD_API_KEY} (or a VS Code input).
With --json the whole export is printed: file name, config, permissions and instructions.

Examples:
  $ switchboard export --format claude-code > .mcp.json
  $ switchboard export --format claude-code --permissions > .claude/settings.json
  $ switchboard export --format vscode -o .vscode/mcp.json`,
      ),
  ).action(async (options: ExportOptions, command: Command) => {
    const { client, json } = contextOf(command);
    if (options.permissions && options.format !== "claude-code") {
      throw usageError("--permissions is for --format claude-code (other clients have no permission rules).");
    }
    const body = await client.get<{ export: ClientExportWire }>("/api/v1/servers/export", {
      format: options.format,
      principal: options.principal,
    });
    const result = body.export;
    const content = json ? result : options.permissions ? { permissions: result.permissions } : result.config;
    const text = `${JSON.stringify(content, null, 2)}\n`;
    if (options.output) {
      fs.writeFileSync(options.output, text);
      note(`Wrote ${options.output}.`);
    } else process.stdout.write(text);
    if (!json && process.stderr.isTTY) for (const line of result.instructions) note(`# ${line}`);
  });
}

type ExportOptions = { format: string; principal?: string; permissions?: boolean; output?: string };

const actionWords = {
  dry: { create: "would create", update: "would update", unchanged: "unchanged", error: "error" },
  done: { create: "created", update: "updated", unchanged: "unchanged", error: "error" },
} as const;

function printReport(report: ImportReportWire, colors: Colors): void {
  const words = report.dryRun ? actionWords.dry : actionWords.done;
  const paint = (entry: ImportEntryWire, text: string) =>
    entry.action === "error"
      ? colors.red(text)
      : entry.action === "unchanged"
        ? colors.dim(text)
        : colors.green(text);
  print(
    renderTable(
      report.entries,
      [
        { header: "Entry", value: (e) => e.source },
        { header: "Server", value: (e) => e.name ?? "—" },
        { header: "Action", value: (e) => words[e.action], style: (text, e) => paint(e, text) },
        {
          header: "Secrets",
          value: (e) =>
            e.secrets
              .map((s) => `${s.name}${s.change === "needs-value" ? " (needs a value)" : ""}`)
              .join(", "),
          max: 70,
        },
      ],
      colors,
    ),
  );
  for (const entry of report.entries) {
    if (entry.error) print(`${colors.red("✗")} ${entry.source}: ${entry.error.message}`);
    for (const warning of entry.warnings) print(`${colors.yellow("!")} ${entry.source}: ${warning}`);
    for (const secret of entry.secrets.filter((s) => s.change === "needs-value")) {
      print(
        `${colors.yellow("!")} ${entry.source}: set the secret with: switchboard secrets set ${secret.name}`,
      );
    }
  }
  const { create, update, unchanged, error } = report.summary;
  print(
    `\n${report.dryRun ? "Dry run (nothing written)" : "Done"}: ${create} ${words.create}, ${update} ${words.update}, ${unchanged} unchanged, ${error} failed.`,
  );
}
