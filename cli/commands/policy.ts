import { type Command, InvalidArgumentError } from "commander";
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
const list = (value: string): string[] =>
  value.trim() === "none"
    ? []
    : value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);

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
      let { policy: rules } = await client.get<{ policy: ApprovalPolicyWire }>("/api/v1/policy/approvals");
      if (options.require || options.selfApproval || options.expiry !== undefined) {
        ({ policy: rules } = await client.put<{ policy: ApprovalPolicyWire }>("/api/v1/policy/approvals", {
          ...rules,
          ...(options.require ? { requireApprovalFor: options.require } : {}),
          ...(options.selfApproval ? { forbidSelfApproval: options.selfApproval === "forbidden" } : {}),
          ...(options.expiry !== undefined ? { expirySeconds: options.expiry } : {}),
        }));
      }
      if (json) return printJson(rules);
      print(
        renderFields([
          [
            "Needs approval",
            rules.requireApprovalFor.length > 0 ? rules.requireApprovalFor.join(", ") : "nothing (by effect)",
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
      let { policy: egress } = await client.get<{ policy: EgressPolicyWire }>("/api/v1/policy/egress");
      const http = {
        ...(options.schemes ? { allowedSchemes: options.schemes } : {}),
        ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
        ...(options.denyHosts ? { denyHosts: options.denyHosts } : {}),
        ...(options.loopback !== undefined ? { allowLoopback: options.loopback } : {}),
        ...(options.private !== undefined ? { allowPrivate: options.private } : {}),
      };
      if (options.commands || Object.keys(http).length > 0) {
        ({ policy: egress } = await client.put<{ policy: EgressPolicyWire }>("/api/v1/policy/egress", {
          stdio: { allowedCommands: options.commands ?? egress.stdio.allowedCommands },
          http: { ...egress.http, ...http },
        }));
      }
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
