import type { Command } from "commander";
import { contextOf, withJsonOption } from "../context";
import { note, print, printJson, renderTable } from "../output";
import type { CallStatsWire } from "../wire-types";

/** The Overview's numbers in a terminal: calls, error rate and p50/p95 run time per server, the busiest agents. */
export function registerStats(program: Command): void {
  withJsonOption(
    program
      .command("stats")
      .description("call rates, error rates and latency per server, and the busiest agents")
      .option("--window <window>", "15m, 1h, 6h or 24h", "1h")
      .option("--server <name>", "one server's numbers only"),
  ).action(async (options: { window: string; server?: string }, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const query = new URLSearchParams({ window: options.window });
    if (options.server) query.set("server", options.server);
    const stats = await client.get<CallStatsWire>(`/api/v1/stats/calls?${query}`);
    if (json) return printJson(stats);
    if (stats.totals.calls === 0) return print(`No calls in the last ${stats.window}.`);
    const ms = (v: number | null) =>
      v === null ? "—" : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(2)} s`;
    const share = (v: number) => `${Math.round(v * 100)}%`;
    print(
      renderTable(
        stats.servers,
        [
          { header: "Server", value: (s) => s.serverName ?? "(deleted)", max: 40 },
          { header: "Calls", value: (s) => String(s.calls) },
          { header: "Per min", value: (s) => s.callsPerMinute.toFixed(2) },
          { header: "Errors", value: (s) => `${s.errors} (${share(s.errorRate)})` },
          { header: "p50", value: (s) => ms(s.p50Ms) },
          { header: "p95", value: (s) => ms(s.p95Ms) },
        ],
        colors,
      ),
    );
    if (stats.busiestAgents.length > 0) {
      print("");
      print(
        renderTable(
          stats.busiestAgents,
          [
            { header: "Agent", value: (a) => a.principalName ?? a.principalId, max: 40 },
            { header: "Calls", value: (a) => String(a.calls) },
            { header: "Errors", value: (a) => String(a.errors) },
          ],
          colors,
        ),
      );
    }
    note(
      `Last ${stats.window}, since ${stats.since}. Errors: failed calls and tool errors; p50/p95: run time.`,
    );
  });
}
