import { type Command, Option } from "commander";
import { segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError, ExitCode } from "../errors";
import { formatTime, print, printJson, renderTable, statusColor } from "../output";
import type { ElicitationWire } from "../wire-types";

/**
 * Servers' questions for an operator (GET /api/v1/elicitations, POST …/{id}): asked during a call
 * whose caller could not answer. The server checks `--content` against its own form.
 */
export function registerQuestions(program: Command): void {
  const questions = program.command("questions").description("servers' questions waiting for an operator");

  withJsonOption(questions.command("list").description("the questions (pending by default)"))
    .addOption(
      new Option("--status <status>", "pending or answered")
        .choices(["pending", "answered"])
        .default("pending"),
    )
    .action(async (options: { status: string }, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const body = await client.get<{ elicitations: ElicitationWire[] }>("/api/v1/elicitations", {
        status: options.status,
      });
      if (json) return printJson(body.elicitations);
      if (body.elicitations.length === 0) return print("No questions.");
      print(
        renderTable(
          body.elicitations,
          [
            { header: "Id", value: (q) => q.id },
            { header: "Server", value: (q) => q.serverName },
            { header: "Call", value: (q) => q.callId },
            { header: "Question", value: (q) => q.message, max: 50 },
            { header: "Fields", value: (q) => Object.keys(fieldsOf(q)).join(", "), max: 40 },
            { header: "Status", value: (q) => q.status, style: (text) => statusColor(text, colors) },
            { header: "Expires", value: (q) => formatTime(q.expiresAt) },
          ],
          colors,
        ),
      );
    });

  withJsonOption(
    questions
      .command("answer")
      .description("answer a question: accept (with --content), decline or cancel")
      .argument("<id>", "the question's id")
      .argument("<action>", "accept, decline or cancel")
      .option("--content <json>", 'accept: the values, as a JSON object (e.g. \'{"username":"ada"}\')'),
  ).action(async (id: string, action: string, options: { content?: string }, command: Command) => {
    const { client, json } = contextOf(command);
    let content: unknown;
    if (options.content !== undefined) {
      try {
        content = JSON.parse(options.content);
      } catch {
        throw new CliError(
          '--content is not JSON: give the values as an object, e.g. \'{"name":"ada"}\'.',
          ExitCode.usage,
        );
      }
    }
    const body = await client.post<{ elicitation: ElicitationWire }>(
      `/api/v1/elicitations/${segment(id)}`,
      content === undefined ? { action } : { action, content },
    );
    if (json) return printJson(body);
    print(`${body.elicitation.status[0]?.toUpperCase()}${body.elicitation.status.slice(1)} ${id}.`);
  });
}

function fieldsOf(question: ElicitationWire): Record<string, unknown> {
  const properties = question.requestedSchema.properties;
  return typeof properties === "object" && properties !== null ? (properties as Record<string, unknown>) : {};
}
