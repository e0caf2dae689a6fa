import { type Command, InvalidArgumentError } from "commander";
import type { ApiClient } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { print, printJson, renderFields } from "../output";

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
      .option("--private <on|off>", "allow private networks", onOff),
  ).action(
    async (
      options: {
        commands?: string[];
        schemes?: string[];
        allowHosts?: string[];
        denyHosts?: string[];
        loopback?: boolean;
        private?: boolean;
      },
      command: Command,
    ) => {
      const { client, json } = contextOf(command);
      const http = {
        ...(options.schemes ? { allowedSchemes: options.schemes } : {}),
        ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
        ...(options.denyHosts ? { denyHosts: options.denyHosts } : {}),
        ...(options.loopback !== undefined ? { allowLoopback: options.loopback } : {}),
        ...(options.private !== undefined ? { allowPrivate: options.private } : {}),
      };
      const egress = await updatePolicy<EgressPolicyWire>(client, "/api/v1/policy/egress", (current) =>
        options.commands || Object.keys(http).length > 0
          ? {
              stdio: { allowedCommands: options.commands ?? current.stdio.allowedCommands },
              http: { ...current.http, ...http },
            }
          : undefined,
      );
      if (json) return printJson(egress);
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
    },
  );
}
