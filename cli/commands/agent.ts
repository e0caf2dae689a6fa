import { type Command, InvalidArgumentError } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError } from "../errors";
import {
  type Colors,
  formatTime,
  note,
  print,
  printJson,
  renderFields,
  renderTable,
  statusColor,
} from "../output";
import type { AgentRunStepWire, AgentRunWire, ModelConnectionWire } from "../wire-types";
import { tail } from "./events";

type RunOptions = {
  model: string;
  maxRounds?: number;
  maxToolCalls?: number;
  timeout?: number;
  wait: boolean;
  json?: boolean;
};

/** A tool's result is shown to a person this long at most; the run's page has it whole. */
const RESULT_PREVIEW_CHARACTERS = 400;

/**
 * Agent runs (/api/v1/agent-runs) and the model endpoints they use (/api/v1/model-connections):
 * `agent run` starts one and follows it step by step over the event stream, like the Agent page.
 */
export function registerAgent(program: Command): void {
  const agent = program
    .command("agent")
    .description("run a model with a principal's granted tools, through the same policy and approvals");

  registerModels(agent);

  withJsonOption(
    agent
      .command("run")
      .description("start a run as a principal and follow it until it ends (Ctrl-C cancels it)")
      .argument("<principal>", "the principal (name or id) the run acts as: it gets exactly its grants")
      .argument("<prompt>", "what the model is asked")
      .requiredOption("--model <name>", "a model connection (switchboard agent models list)")
      .option("--max-rounds <n>", "model turns at most (1–10; default 3)", toWholeNumber)
      .option("--max-tool-calls <n>", "tool calls at most (default 10)", toWholeNumber)
      .option("--timeout <seconds>", "the whole run's time limit (default 300)", toWholeNumber)
      .option("--no-wait", "start it, print its id and exit")
      .addHelpText(
        "after",
        `
Each tool call goes through the principal's grants, effects and approvals: a call that needs
approval holds the run until someone decides it (switchboard approvals approve <call-id>, or the
dashboard). Exit code 0 when the model answered; 1 when the run failed, hit a limit or was
cancelled (the reason is printed). With --json the finished run is printed as JSON.

Example:
  $ switchboard agent run claude-code "Count the words in 'one two three'" --model local`,
      ),
  ).action(async (principal: string, prompt: string, options: RunOptions, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const { run: started } = await client.post<{ run: AgentRunWire }>("/api/v1/agent-runs", {
      principal,
      model: options.model,
      prompt,
      ...(options.maxRounds === undefined ? {} : { maxRounds: options.maxRounds }),
      ...(options.maxToolCalls === undefined ? {} : { maxToolCalls: options.maxToolCalls }),
      ...(options.timeout === undefined ? {} : { timeoutSeconds: options.timeout }),
    });
    if (!options.wait) {
      if (json) return printJson(started);
      return print(`Run ${started.id} started. Follow it: switchboard agent show ${started.id}`);
    }
    if (!json) print(colors.dim(`Run ${started.id} as ${started.principal.name} on ${started.model}`));
    const run = await follow(client, started, json ? undefined : new StepPrinter(colors));
    if (json) printJson(run);
    else print(describeEnd(run, colors));
    if (run.status !== "succeeded") throw new CliError(`The run ${endedAs(run)}.`);
  });

  withJsonOption(agent.command("runs").description("recent runs, newest first")).action(
    async (_options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const { runs } = await client.get<{ runs: AgentRunWire[] }>("/api/v1/agent-runs");
      if (json) return printJson(runs);
      if (runs.length === 0)
        return print('No runs yet. Start one: switchboard agent run <principal> "<prompt>" --model <name>');
      print(
        renderTable(
          runs,
          [
            { header: "Id", value: (r) => r.id },
            { header: "Principal", value: (r) => r.principal.name },
            { header: "Model", value: (r) => r.model },
            { header: "Status", value: (r) => statusText(r), style: (text) => statusColor(text, colors) },
            { header: "Prompt", value: (r) => r.prompt, max: 40 },
            { header: "Calls", value: (r) => String(r.toolCalls) },
            { header: "Started", value: (r) => formatTime(r.createdAt) },
          ],
          colors,
        ),
      );
    },
  );

  withJsonOption(agent.command("show").description("one run: its conversation, calls and outcome"))
    .argument("<id>", "run id")
    .action(async (id: string, _options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const { run } = await client.get<{ run: AgentRunWire }>(`/api/v1/agent-runs/${segment(id)}`);
      if (json) return printJson(run);
      print(
        renderFields(
          [
            ["Run", run.id],
            ["Principal", run.principal.name],
            ["Model", run.model],
            ["Status", statusColor(statusText(run), colors)],
            ["Why it stopped", run.stopReason ?? ""],
            ["Used", usage(run)],
            ["Started", formatTime(run.createdAt)],
            ["Ended", formatTime(run.endedAt)],
          ],
          colors,
        ),
      );
      print();
      const printer = new StepPrinter(colors);
      printer.printNew(run);
    });

  withJsonOption(
    agent.command("cancel").description("stop a running run (its call in flight is cancelled too)"),
  )
    .argument("<id>", "run id")
    .action(async (id: string, _options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const run = await cancel(client, id);
      if (json) return printJson(run);
      print(describeEnd(run, colors));
    });
}

function registerModels(agent: Command): void {
  const models = agent.command("models").description("the OpenAI-compatible model endpoints runs use");

  withJsonOption(models.command("list").description("the model connections")).action(
    async (_options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const rows = await listModels(client);
      if (json) return printJson(rows);
      if (rows.length === 0)
        return print(
          "No model connections yet. Add one: switchboard agent models add <name> --base-url <url> --model <model>",
        );
      print(
        renderTable(
          rows,
          [
            { header: "Name", value: (m) => m.name },
            { header: "Base URL", value: (m) => m.baseUrl },
            { header: "Model", value: (m) => m.model },
            { header: "Key secret", value: (m) => m.apiKeySecret ?? "" },
            { header: "Added", value: (m) => formatTime(m.createdAt) },
          ],
          colors,
        ),
      );
    },
  );

  withJsonOption(
    models
      .command("add")
      .description("register an OpenAI-compatible chat-completions endpoint (Ollama, vLLM, OpenAI, …)")
      .argument("<name>", "what runs call it, e.g. local")
      .requiredOption(
        "--base-url <url>",
        "the API's base, e.g. http://localhost:11434/v1 (…/chat/completions is called)",
      )
      .requiredOption("--model <model>", "the model's name at that endpoint, e.g. qwen2.5:7b")
      .option("--key-secret <name>", "a stored secret sent as the bearer key (switchboard secrets set)"),
  ).action(
    async (
      name: string,
      options: { baseUrl: string; model: string; keySecret?: string },
      command: Command,
    ) => {
      const { client, json } = contextOf(command);
      const { modelConnection } = await client.post<{ modelConnection: ModelConnectionWire }>(
        "/api/v1/model-connections",
        { name, baseUrl: options.baseUrl, model: options.model, apiKeySecret: options.keySecret ?? null },
      );
      if (json) return printJson(modelConnection);
      print(`Added model connection ${modelConnection.name} (${modelConnection.model}).`);
    },
  );

  models
    .command("remove")
    .description("delete a model connection (its runs stay, with its name)")
    .argument("<name>", "the connection's name or id")
    .action(async (name: string, _options, command: Command) => {
      const { client } = contextOf(command);
      const match = (await listModels(client)).find((m) => m.name === name || m.id === name);
      if (!match)
        throw new CliError(`There is no model connection "${name}". See switchboard agent models list.`);
      await client.delete(`/api/v1/model-connections/${segment(match.id)}`);
      print(`Removed model connection ${match.name}.`);
    });
}

async function listModels(client: ApiClient): Promise<ModelConnectionWire[]> {
  const body = await client.get<{ modelConnections: ModelConnectionWire[] }>("/api/v1/model-connections");
  return body.modelConnections;
}

async function cancel(client: ApiClient, id: string): Promise<AgentRunWire> {
  const { run } = await client.post<{ run: AgentRunWire }>(`/api/v1/agent-runs/${segment(id)}/cancel`, {});
  return run;
}

/**
 * Follows a run over the event stream until it ends: each of its events (and each (re)connection,
 * which may have missed some) reads the run again and prints the steps not yet shown. Ctrl-C
 * cancels the run; a second Ctrl-C leaves without waiting for the answer.
 */
async function follow(
  client: ApiClient,
  started: AgentRunWire,
  printer?: StepPrinter,
): Promise<AgentRunWire> {
  let run = started;
  const refresh = async () => {
    ({ run } = await client.get<{ run: AgentRunWire }>(`/api/v1/agent-runs/${segment(run.id)}`));
    printer?.printNew(run);
    return run.status !== "running";
  };
  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    note(`Cancelling run ${run.id}… (Ctrl-C again to leave without waiting)`);
    // The run's own events (its cancelled call, agent_run.finished) end the follow below.
    cancel(client, run.id).catch((error: Error) => note(`Could not cancel: ${error.message}`));
  };
  process.on("SIGINT", onInterrupt);
  try {
    await tail(client, { type: "agent_run.", onOpen: refresh }, async (event) =>
      event.runId === run.id ? refresh() : false,
    );
  } finally {
    process.off("SIGINT", onInterrupt);
  }
  return run;
}

/** Prints a run's steps as a conversation, each once; a held call is printed again once decided. */
class StepPrinter {
  private readonly shown: string[] = [];

  constructor(private readonly colors: Colors) {}

  printNew(run: AgentRunWire): void {
    run.steps.forEach((step, index) => {
      const seen = JSON.stringify(step);
      if (this.shown[index] === seen) return;
      const next = run.steps[index + 1];
      // A model turn without tool calls is the answer, which follows it: wait to see it, print once.
      const isFinalTurn = step.kind === "assistant" && step.toolCalls.length === 0;
      if (isFinalTurn && !next && run.status === "running") return;
      this.shown[index] = seen;
      if (isFinalTurn && next?.kind === "answer" && next.text === (step.text ?? "")) return;
      const text = this.describe(step);
      if (text) print(text);
    });
  }

  private describe(step: AgentRunStepWire): string {
    const { colors } = this;
    switch (step.kind) {
      case "prompt":
        return `${colors.bold("You")}  ${step.text}`;
      case "assistant": {
        const lines = step.text ? [`${colors.bold("Model")}  ${step.text}`] : [];
        for (const call of step.toolCalls)
          lines.push(`${colors.cyan("  → ")}${call.name} ${colors.dim(preview(call.arguments, 200))}`);
        return lines.join("\n");
      }
      case "tool_result": {
        const call = step.callId ? colors.dim(` [call ${step.callId}]`) : "";
        if (step.status === "pending_approval")
          return `${colors.yellow("  ⏸ ")}${step.name} waits for approval${call}\n     approve: switchboard approvals approve ${step.callId}`;
        const status = step.isError && step.status === "succeeded" ? "tool error" : step.status;
        return `${colors.cyan("  ← ")}${step.name} ${statusColor(status, colors)}${call}\n${indent(preview(step.text, RESULT_PREVIEW_CHARACTERS))}`;
      }
      case "answer":
        return `${colors.bold("Answer")}\n${step.text}`;
    }
  }
}

function describeEnd(run: AgentRunWire, colors: Colors): string {
  return `${statusColor(statusText(run), colors)}${run.stopReason ? `: ${run.stopReason}` : ""} ${colors.dim(`(${usage(run)})`)}`;
}

function endedAs(run: AgentRunWire): string {
  const reason = run.stopReason ? `: ${run.stopReason}` : "";
  if (run.status === "limit_reached") return `reached a limit${reason}`;
  return `${run.status === "running" ? "is still running" : `ended as ${run.status}`}${reason}`;
}

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const usage = (run: AgentRunWire) =>
  `${counted(run.rounds, "round")}, ${counted(run.toolCalls, "tool call")}, ${counted(run.tokens, "token")}`;

const statusText = (run: AgentRunWire) => run.status.replace("_", " ");

function preview(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => `     ${line}`)
    .join("\n");

function toWholeNumber(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new InvalidArgumentError("expected a whole number from 1.");
  return number;
}
