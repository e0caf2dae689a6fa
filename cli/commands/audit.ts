import type { Command } from "commander";
import { contextOf, withJsonOption } from "../context";
import { formatTime, note, print, printJson, renderTable } from "../output";
import type { AuditPageWire } from "../wire-types";

/** The workspace's audit trail (Settings → Audit log): sign-ins, members, keys, the gateway mapping. */
export function registerAudit(program: Command): void {
  withJsonOption(
    program
      .command("audit")
      .description("the workspace's audit trail, newest first (admins)")
      .option("--action <action>", 'one action ("member.invited") or a group: auth, member, api_key, gateway')
      .option("--limit <n>", "how many entries (1-200)", "50")
      .option("--cursor <cursor>", "continue from where the last page ended (printed under it)"),
  ).action(async (options: { action?: string; limit: string; cursor?: string }, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const query = new URLSearchParams({ limit: options.limit });
    if (options.action) query.set("action", options.action);
    if (options.cursor) query.set("cursor", options.cursor);
    const page = await client.get<AuditPageWire>(`/api/v1/audit?${query}`);
    if (json) return printJson(page);
    if (page.entries.length === 0) return print("Nothing recorded.");
    print(
      renderTable(
        page.entries,
        [
          { header: "When", value: (e) => formatTime(e.at) },
          {
            header: "Who",
            value: (e) =>
              e.actor.kind === "api_key"
                ? `key ${e.actor.name ?? "(removed)"}`
                : (e.actor.name ?? e.actor.kind),
            max: 30,
          },
          { header: "Action", value: (e) => e.action },
          { header: "Subject", value: (e) => e.subject ?? "—", max: 36 },
          { header: "Detail", value: (e) => e.detail ?? "—", max: 50 },
          { header: "From", value: (e) => e.ipAddress ?? "—" },
        ],
        colors,
      ),
    );
    if (page.nextCursor) note(`Older entries: switchboard audit --cursor ${page.nextCursor}`);
  });
}
