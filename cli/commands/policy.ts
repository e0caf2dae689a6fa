import { type Command, InvalidArgumentError } from "commander";
import type { ApiClient } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { type Colors, note, print, printJson, renderFields } from "../output";
import type { EffectivePolicyWire } from "../wire-types";
import { audienceOf, disableAffectedHelp, disabledLines, formatLaunchSpec, putPolicy } from "./policy-change";
import { registerPolicyLimits } from "./policy-limits";

/**
 * Settings → Approvals and Settings → Egress from the terminal. Without options a command shows
 * the workspace's policy; each option replaces that one field and leaves the others as they are
 * (the REST API's PUT takes the whole policy: the command reads it first).
 */

type ApprovalPolicyWire = {
  requireApprovalFor: string[];
  forbidSelfApproval: boolean;
  expirySeconds: number;
};
const EGRESS_PATH = "/api/v1/policy/egress";

type EgressPolicyWire = {
  stdio: { allowedCommands: string[] };
  http: {
    allowedSchemes: string[];
    allowHosts: string[];
    denyHosts: string[];
    allowLoopback: boolean;
    allowPrivate: boolean;
  };
};

/** GET /api/v1/policy/egress: the workspace's policy and, from servers that have it, the effective one. */
type EgressWire = { policy: EgressPolicyWire; effective?: EffectivePolicyWire };

/** "a,b, c" → ["a", "b", "c"]; "none" → [] (an empty list needs a word a shell keeps). */
function list(value: string): string[] {
  if (value.trim() === "none") return [];
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  // An empty value is more likely a lost shell variable than a wish to empty the list.
  if (items.length === 0) throw new InvalidArgumentError('expected a comma-separated list, or "none".');
  return items;
}

/**
 * The policy at `path`, changed by `change` when it gives a change: the REST API's PUT takes the
 * whole policy, so the current one is read and the change merged over it.
 */
async function updatePolicy<T>(
  client: ApiClient,
  path: string,
  change: (current: T) => T | undefined,
): Promise<T> {
  const { policy: current } = await client.get<{ policy: T }>(path);
  const next = change(current);
  if (next === undefined) return current;
  return (await client.put<{ policy: T }>(path, next)).policy;
}

function onOff(value: string): boolean {
  if (value === "on" || value === "off") return value === "on";
  throw new InvalidArgumentError(`expected on or off, got "${value}".`);
}

function selfApproval(value: string): "allowed" | "forbidden" {
  if (value === "allowed" || value === "forbidden") return value;
  throw new InvalidArgumentError(`expected allowed or forbidden, got "${value}".`);
}

function seconds(value: string): number {
  // Whole seconds only; the range is the server's to check (and to word).
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected whole seconds, got "${value}".`);
  return Number(value);
}

export function registerPolicy(program: Command): void {
  const policy = program.command("policy").description("the workspace's approval rules and egress policy");
  registerPolicyLimits(policy);

  withJsonOption(
    policy
      .command("approvals")
      .description("which effects wait for approval, self-approval, expiry; options change them")
      .option("--require <effects>", "effects that need approval, comma-separated, or none", list)
      .option("--self-approval <allowed|forbidden>", "may operators approve their own calls", selfApproval)
      .option("--expiry <seconds>", "how long a call waits for a decision", seconds),
  ).action(
    async (options: { require?: string[]; selfApproval?: string; expiry?: number }, command: Command) => {
      const { client, json } = contextOf(command);
      const rules = await updatePolicy<ApprovalPolicyWire>(client, "/api/v1/policy/approvals", (current) =>
        options.require || options.selfApproval || options.expiry !== undefined
          ? {
              ...current,
              ...(options.require ? { requireApprovalFor: options.require } : {}),
              ...(options.selfApproval ? { forbidSelfApproval: options.selfApproval === "forbidden" } : {}),
              ...(options.expiry !== undefined ? { expirySeconds: options.expiry } : {}),
            }
          : undefined,
      );
      if (json) return printJson(rules);
      print(
        renderFields([
          [
            "Needs approval",
            rules.requireApprovalFor.length > 0
              ? rules.requireApprovalFor.join(", ")
              : "no effect (only tools whose rule is always)",
          ],
          ["Self-approval", rules.forbidSelfApproval ? "forbidden" : "allowed"],
          ["Expiry", `${rules.expirySeconds} s`],
        ]),
      );
    },
  );

  withJsonOption(
    policy
      .command("egress")
      .description("what stdio servers may launch and HTTP servers may reach; options change it")
      .option("--commands <list>", "allowed stdio commands, comma-separated (replaces the list)", list)
      .option("--schemes <list>", "allowed URL schemes: https, http, or none", list)
      .option("--allow-hosts <list>", "host patterns an HTTP server may be at (replaces the list)", list)
      .option("--deny-hosts <list>", "host patterns refused even when allowed, or none", list)
      .option("--loopback <on|off>", "allow loopback addresses", onOff)
      .option("--private <on|off>", "allow private networks", onOff)
      .option("--disable-affected", disableAffectedHelp)
      .addHelpText(
        "after",
        `
The workspace's policy narrows the instance policy (switchboard instance), never widens it: the
text output ends with what this workspace's servers may really do, the two together.`,
      ),
  ).action(
    async (
      options: {
        commands?: string[];
        schemes?: string[];
        allowHosts?: string[];
        denyHosts?: string[];
        loopback?: boolean;
        private?: boolean;
        disableAffected?: boolean;
      },
      command: Command,
    ) => {
      const { client, json, colors } = contextOf(command);
      const http = {
        ...(options.schemes ? { allowedSchemes: options.schemes } : {}),
        ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
        ...(options.denyHosts ? { denyHosts: options.denyHosts } : {}),
        ...(options.loopback !== undefined ? { allowLoopback: options.loopback } : {}),
        ...(options.private !== undefined ? { allowPrivate: options.private } : {}),
      };
      let current = await client.get<EgressWire>(EGRESS_PATH);
      let disabled: string[] = [];
      if (options.commands || Object.keys(http).length > 0) {
        const next: EgressPolicyWire = {
          stdio: { allowedCommands: options.commands ?? current.policy.stdio.allowedCommands },
          http: { ...current.policy.http, ...http },
        };
        const saved = await putPolicy(client, EGRESS_PATH, next, {
          disableAffected: options.disableAffected,
          what: "egress policy",
        });
        disabled = saved.disabledServers;
        // What is effective follows the policy just saved.
        current = await client.get<EgressWire>(EGRESS_PATH);
      }
      const egress = current.policy;
      if (json) {
        printJson(egress);
        for (const line of disabledLines(disabled)) note(line);
        return;
      }
      print(
        renderFields([
          ["Commands", egress.stdio.allowedCommands.join(", ")],
          ["Schemes", egress.http.allowedSchemes.join(", ")],
          ["Allowed hosts", egress.http.allowHosts.join(", ")],
          ["Denied hosts", egress.http.denyHosts.join(", ")],
          ["Loopback", egress.http.allowLoopback ? "allowed" : "refused"],
          ["Private networks", egress.http.allowPrivate ? "allowed" : "refused"],
        ]),
      );
      if (current.effective) printEffective(current.effective, colors);
      for (const line of disabledLines(disabled)) print(line);
    },
  );
}

/** The workspace's policy within the instance policy: what its servers may really do. */
function printEffective(effective: EffectivePolicyWire, colors: Colors): void {
  const list = (items: string[]) => (items.length > 0 ? items.join(", ") : "none");
  print(`\n${colors.bold("Effective")} (this policy within the instance policy)`);
  print(
    renderFields(
      [
        [
          "Launches",
          effective.launchSpecs.length > 0
            ? effective.launchSpecs.map((s) => `${formatLaunchSpec(s)}  (${audienceOf(s)})`)
            : ["none: no stdio server may start"],
        ],
        ["fromEnv may read", list(effective.fromEnv)],
        ["Launch variables", list(effective.allowedEnv)],
        ["Working folders", effective.cwdRoots],
        ["Schemes", list(effective.http.allowedSchemes)],
        ["Allowed hosts", list(effective.http.allowHosts)],
        ["Denied hosts", list(effective.http.denyHosts)],
        ["Loopback", effective.http.allowLoopback ? "allowed" : "refused"],
        ["Private networks", effective.http.allowPrivate ? "allowed" : "refused"],
      ],
      colors,
    ),
  );
}
