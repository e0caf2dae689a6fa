import type { Command } from "commander";
import { segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError, usageError } from "../errors";
import { formatTime, print, printJson, renderFields, renderTable, statusColor } from "../output";
import { withSpinner } from "../spinner";
import type {
  DiagnosticsWire,
  HealthChecksWire,
  HealthCheckWire,
  RefreshWire,
  ServerToolsWire,
} from "../wire-types";

const serverPath = (name: string, part: string) => `/api/v1/servers/${segment(name)}${part}`;

/** The live side of a server: probe, reconnect, re-discover, and what it offers and why it fails. */
export function registerServerInspection(servers: Command): void {
  withJsonOption(
    servers
      .command("health")
      .description("probe servers now (ping, or tools/list): one, several, or --all in one request"),
  )
    .argument("[names...]", "server names")
    .option("--all", "every enabled server of the workspace")
    .action(async (names: string[], options: { all?: boolean }, command: Command) => {
      const { client, json, colors } = contextOf(command);
      if (options.all && names.length > 0) throw usageError("Name servers or pass --all, not both.");
      if (!options.all && names.length === 0) throw usageError("Name a server to check, or pass --all.");
      const [name] = names;
      if (name !== undefined && names.length === 1) {
        const result = await withSpinner(`Checking ${name}…`, () =>
          client.post<HealthCheckWire>(serverPath(name, "/health-check")),
        );
        if (json) return printJson(result);
        if (!result.ok) throw new CliError(`${name} is unhealthy: ${result.error ?? "no answer"}.`);
        return print(
          `${colors.green("healthy")}  ${name} answered ${result.probe ?? "ping"} in ${result.latencyMs} ms.`,
        );
      }
      const answer = await withSpinner(
        options.all ? "Checking every server…" : `Checking ${names.length} servers…`,
        () =>
          client.post<HealthChecksWire>("/api/v1/health-checks", options.all ? {} : { servers: names }, {
            timeoutMs: 600_000,
          }),
      );
      if (json) return printJson(answer);
      const rows = [
        ...answer.results.map((r) => ({ ...r, state: r.ok ? "healthy" : "unhealthy" })),
        ...answer.skipped.map((s) => ({
          server: s.server,
          state: s.reason,
          latencyMs: null,
          error: undefined,
        })),
      ];
      print(
        renderTable(
          rows,
          [
            { header: "server", value: (r) => r.server },
            { header: "health", value: (r) => r.state, style: (text) => statusColor(text, colors) },
            { header: "latency", value: (r) => (r.latencyMs === null ? "—" : `${r.latencyMs} ms`) },
            { header: "error", value: (r) => r.error ?? "" },
          ],
          colors,
        ),
      );
      const unhealthy = answer.results.filter((r) => !r.ok).length;
      if (unhealthy > 0)
        throw new CliError(`${unhealthy} of ${answer.results.length} servers are unhealthy.`);
    });

  withJsonOption(servers.command("reconnect").description("drop the connection and open it again"))
    .argument("<name>", "server name")
    .action(async (name: string, _options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const result = await withSpinner(`Reconnecting ${name}…`, () =>
        client.post<{ state: string }>(serverPath(name, "/reconnect"), {}, { timeoutMs: 120_000 }),
      );
      if (json) return printJson(result);
      print(`${name}: ${statusColor(result.state, colors)}`);
    });

  withJsonOption(
    servers.command("refresh").description("list the server's tools, resources and prompts again"),
  )
    .argument("<name>", "server name")
    .action(async (name: string, _options, command: Command) => {
      const { client, json } = contextOf(command);
      const result = await withSpinner(`Refreshing the catalog of ${name}…`, () =>
        client.post<RefreshWire>(serverPath(name, "/refresh"), {}, { timeoutMs: 120_000 }),
      );
      if (json) return printJson(result);
      print(result.changed ? `The catalog of ${name} changed:` : `The catalog of ${name} is unchanged.`);
      for (const [kind, diff] of Object.entries(result.diff ?? {})) {
        for (const [change, names] of Object.entries(diff)) {
          if (names.length > 0) print(`  ${kind} ${change}: ${names.join(", ")}`);
        }
      }
      for (const problem of result.problems ?? []) print(`  problem: ${problem}`);
    });

  withJsonOption(servers.command("tools").description("list the tools a server offers"))
    .argument("<name>", "server name")
    .action(async (name: string, _options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const { tools } = await client.get<ServerToolsWire>(serverPath(name, "/tools"));
      if (json) return printJson(tools);
      if (tools.length === 0)
        return print(
          `${name} has no tools (yet): is it connected? Try switchboard servers diagnostics ${name}.`,
        );
      print(
        renderTable(
          tools,
          [
            { header: "Tool", value: (t) => t.name },
            { header: "Gateway name", value: (t) => t.gatewayName },
            { header: "Effect", value: (t) => t.effect ?? "unclassified" },
            { header: "Description", value: (t) => t.title ?? t.description ?? "", max: 60 },
          ],
          colors,
        ),
      );
    });

  withJsonOption(
    servers.command("diagnostics").description("state, last error, exit, stderr tail and health history"),
  )
    .argument("<name>", "server name")
    .action(async (name: string, _options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const result = await client.get<DiagnosticsWire>(serverPath(name, "/diagnostics"));
      if (json) return printJson(result);
      const exit = result.exit ? `code ${result.exit.code ?? "—"}, signal ${result.exit.signal ?? "—"}` : "";
      print(
        renderFields(
          [
            ["Server", result.server],
            ["State", statusColor(result.state, colors)],
            // Every replica connects the server; what follows (error, exit, stderr) is this one's.
            ["Replica", result.replica],
            [
              "Last error",
              result.lastError ? `${result.lastError.message} (${formatTime(result.lastError.at)})` : "",
            ],
            ["Exit", exit],
          ],
          colors,
        ),
      );
      if (result.replicas.length > 1) {
        const { ready, of } = result.replicaSummary;
        print(`\n${colors.bold(`Replicas (ready on ${ready} of ${of} live)`)}`);
        print(
          renderTable(
            result.replicas,
            [
              { header: "Replica", value: (r) => (r.live ? r.id : `${r.id} (gone silent)`) },
              { header: "State", value: (r) => r.state, style: (text) => statusColor(text, colors) },
              { header: "Updated", value: (r) => (r.updatedAt ? formatTime(r.updatedAt) : "—") },
              { header: "Last error", value: (r) => r.lastError ?? "" },
            ],
            colors,
          ),
        );
      }
      if (result.stderrTail.trim())
        print(`\n${colors.bold("Stderr (tail)")}\n${result.stderrTail.trimEnd()}`);
      if (result.healthHistory.length > 0) {
        print(`\n${colors.bold("Health checks")}`);
        print(
          renderTable(
            result.healthHistory.slice(0, 10),
            [
              { header: "Checked", value: (h) => formatTime(h.checkedAt) },
              { header: "OK", value: (h) => (h.ok ? "yes" : "no") },
              { header: "Latency", value: (h) => (h.latencyMs === null ? "—" : `${h.latencyMs} ms`) },
              { header: "Error", value: (h) => h.error ?? "" },
            ],
            colors,
          ),
        );
      }
    });
}
