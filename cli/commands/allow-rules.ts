import type { Command } from "commander";
import { segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError } from "../errors";
import { formatTime, print, printJson, renderTable, statusColor } from "../output";
import type { AllowRuleWire } from "../wire-types";
import { findPrincipal } from "./principals";

/** Allow rules: list, create, revoke (GET/POST /api/v1/allow-rules, DELETE …/{id}). */
export function registerAllowRules(program: Command): void {
  const rules = program
    .command("rules")
    .description("allow rules: let an agent call a tool without approval for a while");

  withJsonOption(rules.command("list").description("every allow rule, newest first")).action(
    async (_options: unknown, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const { allowRules } = await client.get<{ allowRules: AllowRuleWire[] }>("/api/v1/allow-rules");
      if (json) return printJson(allowRules);
      if (allowRules.length === 0) return print("No allow rules.");
      print(
        renderTable(
          allowRules,
          [
            { header: "Id", value: (r) => r.id },
            { header: "Principal", value: (r) => r.principal.name },
            { header: "Tool", value: (r) => r.tool },
            { header: "Only when", value: (r) => describeConditions(r), max: 40 },
            { header: "Status", value: (r) => r.status, style: (text) => statusColor(text, colors) },
            { header: "Until", value: (r) => formatTime(r.revokedAt ?? r.expiresAt) },
          ],
          colors,
        ),
      );
    },
  );

  withJsonOption(
    rules
      .command("create")
      .description("let a principal call a tool without approval (it still needs its grant)")
      .argument("<principal>", "the principal's name or id")
      .argument("<tool>", "the tool's gateway name, <server>__<tool>")
      .option("--for <duration>", "how long: 15m, 1h, 1d, or a number of minutes")
      .option("--until <time>", "until a moment (ISO 8601, e.g. 2030-01-31T18:00:00Z)")
      .option("--when <field=value>", "only when an argument equals a value (repeatable)", collect, [])
      .option(
        "--when-match <field=pattern>",
        "only when an argument matches a pattern (repeatable)",
        collect,
        [],
      ),
  ).action(
    async (
      principalRef: string,
      tool: string,
      options: { for?: string; until?: string; when: string[]; whenMatch: string[] },
      command: Command,
    ) => {
      const { client, json } = contextOf(command);
      const principal = await findPrincipal(client, principalRef);
      const conditions = [
        ...options.when.map((pair) => conditionOf(pair, "equals")),
        ...options.whenMatch.map((pair) => conditionOf(pair, "matches")),
      ];
      const term =
        options.until !== undefined
          ? { until: options.until }
          : { durationMinutes: minutesOf(options.for ?? "15m") };
      const { allowRule } = await client.post<{ allowRule: AllowRuleWire }>("/api/v1/allow-rules", {
        principalId: principal.id,
        tool,
        ...term,
        conditions,
      });
      if (json) return printJson(allowRule);
      print(
        `${principal.name} may call ${tool} without approval until ${formatTime(allowRule.expiresAt)} (${allowRule.id}).`,
      );
    },
  );

  withJsonOption(
    rules.command("revoke").description("revoke an allow rule").argument("<id>", "the rule's id"),
  ).action(async (id: string, _options: unknown, command: Command) => {
    const { client, json } = contextOf(command);
    const { allowRule } = await client.delete<{ allowRule: AllowRuleWire }>(
      `/api/v1/allow-rules/${segment(id)}`,
    );
    if (json) return printJson(allowRule);
    print(
      `Revoked ${allowRule.id}: ${allowRule.principal.name}'s calls of ${allowRule.tool} wait for approval again.`,
    );
  });
}

const collect = (value: string, previous: string[]) => [...previous, value];

function conditionOf(pair: string, op: "equals" | "matches") {
  const at = pair.indexOf("=");
  if (at <= 0) throw new CliError(`"${pair}" is not field=value.`);
  return { field: pair.slice(0, at), op, value: pair.slice(at + 1) };
}

/** 15m, 1h, 1d, or plain minutes. */
export function minutesOf(duration: string): number {
  const match = /^(\d+)\s*([mhd]?)$/.exec(duration.trim());
  if (!match) throw new CliError(`"${duration}" is not a duration: use 15m, 1h, 1d or a number of minutes.`);
  const unit = { "": 1, m: 1, h: 60, d: 1440 }[match[2] as "" | "m" | "h" | "d"];
  return Number(match[1]) * unit;
}

function describeConditions(rule: AllowRuleWire): string {
  if (rule.conditions.length === 0) return "any arguments";
  return rule.conditions
    .map((c) => (c.op === "equals" ? `${c.field}=${c.value}` : `${c.field}~/${c.value}/`))
    .join(", ");
}
