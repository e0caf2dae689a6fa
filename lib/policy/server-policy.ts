import fs from "node:fs";
import path from "node:path";
import type { StoredAuth, StoredValue } from "@/db/schema/servers";
import { describeAddress } from "./address-class";
import { checkAddress, checkEgress, type ResolvedAddress, type ResolveHost, systemResolver } from "./egress";
import type { EgressPolicy } from "./egress-schema";
import type { InstancePolicy } from "./instance-policy-schema";
import { formatSpec, isExactSpec, type LaunchSpec, matchArgs } from "./launch-spec-pattern";
import { findCodeRunningArgument, resolveProgram, sameProgram } from "./launch-specs";
import { isLaunchVariable, isOwnSetting } from "./stdio-environment";

/**
 * May this server configuration run, under the instance policy narrowed by its workspace's egress
 * policy? One check for registration, import and every connect. Refusals name the policy and rule
 * that refused, the field at fault, and who can allow it.
 */

export type ServerTarget = {
  transport: "stdio" | "streamable-http" | "sse";
  command?: string | null;
  args?: readonly string[];
  cwd?: string | null;
  env?: Record<string, StoredValue>;
  url?: string | null;
  headers?: Record<string, StoredValue>;
  auth?: StoredAuth;
};

export type PolicyRefusal = {
  kind: "deny";
  policy: "instance" | "workspace";
  rule: string;
  reason: string;
  /** The configuration field at fault, for a form to show the reason beside it. */
  field: string;
};
export type ServerPermit = {
  kind: "allow" /** the absolute program a stdio server runs */;
  programPath?: string;
};

export type ServerPolicies = { instance: InstancePolicy; workspace: EgressPolicy };

const OWNER_HINT = "Only an instance owner can allow it, in Settings → Instance.";

export async function checkServerPolicy(
  policies: ServerPolicies,
  target: ServerTarget,
  options: { ownerLaunch: boolean; resolve?: ResolveHost },
): Promise<ServerPermit | PolicyRefusal> {
  const refusedReference = checkEnvReferences(policies.instance, target);
  if (refusedReference) return refusedReference;
  if (target.transport === "stdio") return checkLaunch(policies, target, options.ownerLaunch);
  return checkEndpoint(policies, target.url ?? null, options.resolve ?? systemResolver);
}

const refuse = (
  policy: PolicyRefusal["policy"],
  rule: string,
  field: string,
  reason: string,
): PolicyRefusal => ({ kind: "deny", policy, rule, field, reason });

// ── fromEnv ──────────────────────────────────────────────────────────────────────────────────

function checkEnvReferences(policy: InstancePolicy, target: ServerTarget): PolicyRefusal | undefined {
  const values: Array<[field: string, value: StoredValue]> = [
    ...Object.entries(target.env ?? {}).map(([k, v]) => [`env.${k}`, v] as [string, StoredValue]),
    ...Object.entries(target.headers ?? {}).map(([k, v]) => [`headers.${k}`, v] as [string, StoredValue]),
  ];
  if (target.auth && "credential" in target.auth) values.push(["auth.credential", target.auth.credential]);
  for (const [field, value] of values) {
    if (typeof value !== "object" || !("fromEnv" in value)) continue;
    const name = value.fromEnv;
    if (isOwnSetting(name)) {
      return refuse(
        "instance",
        "fromEnv.ownSettings",
        field,
        `${name} is one of Switchboard's own settings; a server can never read it. Store the value as a secret instead.`,
      );
    }
    if (!policy.fromEnv.allowed.includes(name)) {
      return refuse(
        "instance",
        "fromEnv.allowed",
        field,
        `the instance policy does not let servers read the environment variable ${name}. Store the value as a secret, or ask an instance owner to allow ${name} in Settings → Instance.`,
      );
    }
  }
  return undefined;
}

/** Whether a reference may be resolved (and shown as set): the connect-time twin of the check above. */
export function canReadFromEnv(policy: InstancePolicy, name: string): boolean {
  return !isOwnSetting(name) && policy.fromEnv.allowed.includes(name);
}

// ── stdio ────────────────────────────────────────────────────────────────────────────────────

function checkLaunch(
  policies: ServerPolicies,
  target: ServerTarget,
  ownerLaunch: boolean,
): ServerPermit | PolicyRefusal {
  const { instance, workspace } = policies;
  const allowedEnv = new Set(instance.stdio.allowedEnv.map((n) => n.toUpperCase()));
  for (const name of Object.keys(target.env ?? {})) {
    if (isLaunchVariable(name) && !allowedEnv.has(name.toUpperCase())) {
      return refuse(
        "instance",
        "stdio.env",
        `env.${name}`,
        `${name} changes which code a program runs, so a server's env may not set it. ${OWNER_HINT}`,
      );
    }
  }
  if (target.cwd) {
    const refusal = checkWorkingFolder(instance.stdio.cwdRoots, target.cwd);
    if (refusal) return refusal;
  }

  const command = target.command ?? "";
  const programPath = command ? resolveProgram(command) : undefined;
  if (!programPath) {
    return refuse(
      "instance",
      "stdio.program",
      "command",
      command
        ? `"${command}" is not a program on Switchboard's PATH (${process.env.PATH ?? "empty"}). Use a program name found there, or an absolute path to an executable.`
        : "a stdio server needs a command.",
    );
  }
  // The instance's launch specs first: the outer boundary, the one a workspace cannot move.
  const launch = { command, programPath, args: target.args ?? [] };
  const permit = matchLaunchSpecs(instance.stdio.launchSpecs, launch, ownerLaunch);
  if (permit.kind === "deny") return permit;
  const inWorkspaceList = workspace.stdio.allowedCommands.some((entry) => {
    if (entry === command) return true;
    const listed = resolveProgram(entry);
    return listed !== undefined && sameProgram(listed, programPath);
  });
  if (!inWorkspaceList) {
    return refuse(
      "workspace",
      "stdio.allowedCommands",
      "command",
      `the command "${command}" is not in this workspace's allowed commands (${workspace.stdio.allowedCommands.join(", ") || "none"}). A workspace admin can add it in Settings → Egress.`,
    );
  }
  return permit;
}

function checkWorkingFolder(roots: readonly string[], cwd: string): PolicyRefusal | undefined {
  if (!path.isAbsolute(cwd)) {
    return refuse("instance", "stdio.cwd", "cwd", `the working folder "${cwd}" must be an absolute path.`);
  }
  // Symbolic links and ".." are followed first: the folder is where the program will really run.
  const real = realpathOrResolved(cwd);
  const inside = roots.some((root) => {
    const base = realpathOrResolved(root);
    return real === base || real.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
  });
  if (inside) return undefined;
  return refuse(
    "instance",
    "stdio.cwd",
    "cwd",
    `the working folder "${cwd}" is outside the folders the instance allows (${roots.join(", ") || "none"}). ${OWNER_HINT}`,
  );
}

function realpathOrResolved(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

function matchLaunchSpecs(
  specs: readonly LaunchSpec[],
  launch: { command: string; programPath: string; args: readonly string[] },
  ownerLaunch: boolean,
): ServerPermit | PolicyRefusal {
  const shown = [launch.command, ...launch.args].join(" ");
  const forProgram = specs.filter((spec) => {
    const program = resolveProgram(spec.program);
    return program !== undefined && sameProgram(program, launch.programPath);
  });
  let refusal: PolicyRefusal | undefined;
  let ownersOnly: LaunchSpec | undefined;
  // Exact specs first: what an owner allowed word for word needs no further look.
  const ordered = [...forProgram].sort((a, b) => Number(isExactSpec(b)) - Number(isExactSpec(a)));
  for (const spec of ordered) {
    const match = matchArgs(spec.args, spec.rest, launch.args);
    if (!match.ok) continue;
    if (spec.audience === "owners" && !ownerLaunch) {
      ownersOnly ??= spec;
      continue;
    }
    if (isExactSpec(spec)) return { kind: "allow", programPath: launch.programPath };
    const codeRunning = findCodeRunningArgument(launch.programPath, launch.args, match.chosen);
    if (!codeRunning) return { kind: "allow", programPath: launch.programPath };
    refusal ??= refuse(
      "instance",
      "stdio.codeOptions",
      "args",
      `${codeRunning}, so "${shown}" is refused. Only an instance owner can allow this exact launch, in Settings → Instance.`,
    );
  }
  if (refusal) return refusal;
  if (ownersOnly) {
    return refuse(
      "instance",
      "stdio.ownersOnly",
      "command",
      `"${shown}" matches the launch spec "${formatSpec(ownersOnly)}", which only an instance owner may register. Ask an owner to register it, or to open an exact spec to every workspace in Settings → Instance.`,
    );
  }
  const known = forProgram.map((s) => `"${formatSpec(s)}"`).join(", ");
  return refuse(
    "instance",
    "stdio.launchSpecs",
    forProgram.length > 0 ? "args" : "command",
    `"${shown}" matches none of the launch specs of the instance policy${known ? ` (for ${launch.command}: ${known})` : ` (none is for ${launch.command})`}. ${OWNER_HINT}`,
  );
}

/** The instance's http rules as an egress policy of their own: the floor no workspace can move. */
function floorOf(instance: InstancePolicy): EgressPolicy {
  return { stdio: { allowedCommands: [] }, http: { ...instance.http, allowHosts: ["*"] } };
}

// ── HTTP ─────────────────────────────────────────────────────────────────────────────────────

async function checkEndpoint(
  policies: ServerPolicies,
  url: string | null,
  resolve: ResolveHost,
): Promise<ServerPermit | PolicyRefusal> {
  // One resolution for both checks: the floor and the workspace judge the same addresses.
  const resolved = new Map<string, Promise<ResolvedAddress[]>>();
  const resolveOnce: ResolveHost = (host) => {
    const known = resolved.get(host);
    if (known) return known;
    const answer = resolve(host);
    resolved.set(host, answer);
    return answer;
  };
  const floor = floorOf(policies.instance);
  const target = { transport: "streamable-http" as const, url };
  const byInstance = await checkEgress(floor, target, resolveOnce, "instance");
  // A name that does not resolve is only a verdict once the rules about names have had their say:
  // a host the workspace denies stays refused (and disabled) whether or not it resolves today.
  if (byInstance.kind === "deny" && byInstance.rule !== "http.dns") {
    return refuse("instance", byInstance.rule, "url", byInstance.reason);
  }
  const byWorkspace = await checkEgress(policies.workspace, target, resolveOnce, "workspace");
  if (byWorkspace.kind === "deny") return refuse("workspace", byWorkspace.rule, "url", byWorkspace.reason);
  if (byInstance.kind === "deny") return refuse("instance", byInstance.rule, "url", byInstance.reason);
  return { kind: "allow" };
}

// ── every DNS answer of a connection ─────────────────────────────────────────────────────────

/** A refusal of one DNS answer, made while a connection was open (see pinned-fetch). */
export class EgressRefusedError extends Error {
  readonly code = "EGRESS_REFUSED";
}

/** One resolved address of a server's host, judged by the instance floor and then the workspace. */
export function checkResolvedAddress(
  policies: ServerPolicies,
  host: string,
  address: string,
): PolicyRefusal | undefined {
  const byInstance = checkAddress(floorOf(policies.instance), host, address, "instance");
  if (byInstance.kind === "deny") return refuse("instance", byInstance.rule, "url", byInstance.reason);
  const byWorkspace = checkAddress(policies.workspace, host, address, "workspace");
  if (byWorkspace.kind === "deny") return refuse("workspace", byWorkspace.rule, "url", byWorkspace.reason);
  return undefined;
}

/**
 * The resolver one connection's requests go through: every answer is judged again, and one
 * refused address refuses the lot (as at the check), so a name that re-resolves to 127.0.0.1
 * after the connect-time check reaches nothing.
 */
export function resolverWithinPolicy(
  policies: ServerPolicies,
  resolve: ResolveHost = systemResolver,
): ResolveHost {
  return async (host) => {
    const addresses = await resolve(host);
    for (const { address } of addresses) {
      const refusal = checkResolvedAddress(policies, host, address);
      if (!refusal) continue;
      const which = refusal.policy === "instance" ? "the instance policy" : "the workspace's egress policy";
      throw new EgressRefusedError(
        `${host} resolved to ${address}, refused by egress (${describeAddress(address).range}): ${which} does not allow it (${refusal.rule}), so nothing was sent there.`,
      );
    }
    return addresses;
  };
}
