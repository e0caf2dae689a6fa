import type { Command } from "commander";
import { segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { formatTime, print, printJson, renderFields, renderTable, statusColor } from "../output";
import { type ApprovalWire, type CallWire, requesterName, toolNameOf, unwrapCall } from "../wire-types";
import { describeResult, outcomeText } from "./call-result";

type TimelineItem = { id?: number | string; type: string; createdAt?: string; at?: string };

/** Call history (GET /api/v1/calls) and one call with its timeline (GET /api/v1/calls/{id}). */
export function registerCalls(program: Command): void {
  const calls = program.command("calls").description("the history of tool calls");

  withJsonOption(calls.command("list").description("recent calls, newest first"))
    .option(
      "--status <status>",
      "only calls that ended so, comma-separated (e.g. pending_approval, failed, tool_error; succeeded excludes tool errors)",
    )
    .option("--server <name>", "only calls to this server's tools")
    .option("--tool <name>", "only calls to this tool (gateway name)")
    .option("--limit <n>", "at most this many", "50")
    .action(
      async (
        options: { status?: string; server?: string; tool?: string; limit: string },
        command: Command,
      ) => {
        const { client, json, colors } = contextOf(command);
        const body = await client.get<{ calls: CallWire[] }>("/api/v1/calls", {
          status: options.status,
          server: options.server,
          tool: options.tool,
          limit: options.limit,
        });
        if (json) return printJson(body);
        if (body.calls.length === 0) return print("No calls.");
        print(
          renderTable(
            body.calls,
            [
              { header: "Id", value: (c) => c.id },
              { header: "Tool", value: toolNameOf },
              { header: "Status", value: outcomeText, style: (text) => statusColor(text, colors) },
              { header: "Requester", value: (c) => requesterName(c.requester) },
              { header: "Created", value: (c) => formatTime(c.createdAt) },
              { header: "Duration", value: (c) => (c.durationMs == null ? "" : `${c.durationMs} ms`) },
            ],
            colors,
          ),
        );
      },
    );

  withJsonOption(calls.command("show").description("one call: who, what, outcome and timeline"))
    .argument("<id>", "call id")
    .action(async (id: string, _options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const body = await client.get<{ call?: CallWire; timeline?: TimelineItem[]; events?: TimelineItem[] }>(
        `/api/v1/calls/${segment(id)}`,
      );
      if (json) return printJson(body);
      const call = unwrapCall(body);
      const error = call.error?.message ?? "";
      print(
        renderFields(
          [
            ["Call", call.id],
            ["Tool", toolNameOf(call)],
            ["Status", statusColor(outcomeText(call), colors)],
            ["Effect", call.effect ?? ""],
            ["Requester", requesterName(call.requester)],
            ["Created", formatTime(call.createdAt)],
            ["Finished", formatTime(call.finishedAt)],
            ["Approval", call.approval ? describeApproval(call.approval) : ""],
            ["Error", error],
          ],
          colors,
        ),
      );
      const timeline = body.timeline ?? body.events ?? [];
      if (timeline.length > 0) {
        print(`\n${colors.bold("Timeline")}`);
        for (const item of timeline) print(`  ${formatTime(item.createdAt ?? item.at)}  ${item.type}`);
      }
      if (call.result) print(`\n${colors.bold("Result")}\n${describeResult(call.result)}`);
    });
}

function describeApproval(approval: ApprovalWire): string {
  const by = approval.decidedBy ? ` by ${requesterName(approval.decidedBy)}` : "";
  return `${approval.status}${by}${approval.reason ? `: ${approval.reason}` : ""}`;
}
