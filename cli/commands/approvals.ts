import { type Command, InvalidArgumentError, Option } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError } from "../errors";
import { formatTime, print, printJson, renderTable, statusColor } from "../output";
import { type ApprovalWire, requesterName, toolNameOf } from "../wire-types";

/** The approval queue: list, approve, deny (GET /api/v1/approvals, POST …/{id}/approve|deny). */
export function registerApprovals(program: Command): void {
  const approvals = program.command("approvals").description("calls waiting for a person's decision");

  withJsonOption(approvals.command("list").description("the approval queue (pending by default)"))
    .addOption(
      new Option("--status <status>", "the queue (pending), the history (decided), or both")
        .choices(["pending", "decided", "all"])
        .default("pending"),
    )
    .action(async (options: { status: string }, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const rows = await listApprovals(client, options.status);
      if (json) return printJson(rows);
      if (rows.length === 0)
        return print(options.status === "pending" ? "Nothing is waiting for approval." : "No approvals.");
      print(
        renderTable(
          rows,
          [
            { header: "Id", value: (a) => a.id },
            { header: "Call", value: (a) => a.call?.id ?? "" },
            { header: "Tool", value: (a) => (a.call ? toolNameOf(a.call) : "") },
            { header: "Status", value: (a) => a.status, style: (text) => statusColor(text, colors) },
            { header: "Requester", value: (a) => requesterName(a.call?.requester) },
            { header: "Why", value: (a) => a.requiredBecause ?? "", max: 40 },
            {
              header: options.status === "pending" ? "Expires" : "Decided",
              value: (a) => (a.status === "pending" ? formatTime(a.expiresAt) : formatTime(a.decidedAt)),
            },
          ],
          colors,
        ),
      );
    });

  for (const decision of ["approve", "deny"] as const) {
    const command = approvals
      .command(decision)
      .description(
        decision === "approve" ? "let a held call run" : "refuse a held call (the caller sees the reason)",
      )
      .argument("<id>", "approval id (or the call's id)")
      .option("--reason <text>", "why; shown to the caller and in the history");
    if (decision === "approve")
      command.option(
        "--arguments <object>",
        "run it with these arguments instead (the whole set, as JSON; same tool, checked against its schema)",
        parseArguments,
      );
    withJsonOption(command).action(
      async (id: string, options: { reason?: string; arguments?: Record<string, unknown> }, cmd: Command) => {
        const { client, json } = contextOf(cmd);
        const approvalId = await resolveApprovalId(client, id);
        const body = await client.post<{ approval?: ApprovalWire } & Partial<ApprovalWire>>(
          `/api/v1/approvals/${segment(approvalId)}/${decision}`,
          {
            ...(options.reason ? { reason: options.reason } : {}),
            ...(options.arguments ? { arguments: options.arguments } : {}),
          },
        );
        if (json) return printJson(body);
        const edited = options.arguments ? " with edited arguments" : "";
        print(`${decision === "approve" ? "Approved" : "Denied"} ${approvalId}${edited}.`);
      },
    );
  }
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new InvalidArgumentError(`expected a JSON object, e.g. '{"text": "hello"}'.`);
}

async function listApprovals(client: ApiClient, status: string): Promise<ApprovalWire[]> {
  if (status === "all") {
    return [...(await listApprovals(client, "pending")), ...(await listApprovals(client, "decided"))];
  }
  const body = await client.get<{ approvals: ApprovalWire[] }>("/api/v1/approvals", { status });
  return body.approvals;
}

/** People copy the call id from the waiting `switchboard call` as often as the approval id. */
async function resolveApprovalId(client: ApiClient, id: string): Promise<string> {
  const pending = await listApprovals(client, "pending");
  if (pending.some((a) => a.id === id)) return id;
  const byCall = pending.find((a) => a.call?.id === id);
  if (byCall) return byCall.id;
  // Already decided: deciding again is a 409 whose message says so.
  const decided = await listApprovals(client, "decided");
  if (decided.some((a) => a.id === id)) return id;
  const decidedCall = decided.find((a) => a.call?.id === id);
  if (decidedCall) return decidedCall.id;
  throw new CliError(
    `There is no approval or held call with the id "${id}". See switchboard approvals list.`,
  );
}
