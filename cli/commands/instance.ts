import type { Command } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError } from "../errors";
import { type Colors, formatTime, print, printJson, renderFields, renderTable } from "../output";
import { confirmedOrYes, readInput } from "../prompt";
import type { InstanceOverviewWire, InstanceOwnerWire, InstancePolicyWire } from "../wire-types";
import { audienceOf, disableAffectedHelp, disabledLines, formatLaunchSpec, putPolicy } from "./policy-change";

/**
 * Settings → Instance from the terminal: the instance policy (what any workspace's servers may
 * ever do on this machine), its owners, and what a stdio server can reach. Instance owners only:
 * an owner's key (the bootstrap key is one); any other key gets 403.
 */

const POLICY_PATH = "/api/v1/instance/policy";
const OWNERS_PATH = "/api/v1/instance/owners";

export function registerInstance(program: Command): void {
  // --json is declared here only: the subcommands read it as a global option (one --json in their help).
  const instance = withJsonOption(
    program
      .command("instance")
      .description("the instance policy, its owners, and what stdio servers can reach (instance owners)")
      .addHelpText(
        "after",
        `
Without a subcommand: the owners, who stdio servers run as, the launch specs, what fromEnv may
read, the launch variables and working folders allowed, the egress floor, who creates workspaces.

The policy is edited as JSON: get it, change it, set it. A policy that would refuse servers
already registered is not saved (exit 1, the servers listed) unless --disable-affected is given.

Examples:
  $ switchboard instance
  $ switchboard instance policy get > policy.json
  $ switchboard instance policy set policy.json
  $ switchboard instance owners add grace@example.com`,
      ),
  ).action(async (_options, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const overview = await client.get<InstanceOverviewWire>("/api/v1/instance");
    if (json) return printJson(overview);
    printOverview(overview, colors);
  });

  const policy = instance
    .command("policy")
    .description("the instance policy as JSON: get it, edit it, set it");

  policy
    .command("get")
    .description("print the instance policy as JSON (the input of policy set)")
    .action(async (_options, command: Command) => {
      const { client } = contextOf(command);
      printJson((await client.get<{ policy: InstancePolicyWire }>(POLICY_PATH)).policy);
    });

  policy
    .command("set")
    .description("replace the instance policy with the JSON in a file (the whole policy)")
    .argument("<file>", "the policy as JSON (as policy get prints it), or - for stdin")
    .option("--disable-affected", disableAffectedHelp)
    .action(async (file: string, options: { disableAffected?: boolean }, command: Command) => {
      const { client, json } = contextOf(command);
      const proposed = parsePolicy(await readInput(file), file);
      const saved = await putPolicy(client, POLICY_PATH, proposed, {
        disableAffected: options.disableAffected,
        what: "instance policy",
      });
      if (json) return printJson(saved);
      print("Saved the instance policy.");
      for (const line of disabledLines(saved.disabledServers)) print(line);
    });

  const owners = instance
    .command("owners")
    .description("the instance owners: list them, name another, remove one (the last one stays)")
    .action(async (_options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const rows = await listOwners(client);
      if (json) return printJson(rows);
      if (rows.length === 0)
        return print("No instance owners yet: the person who completes first-run setup becomes the first.");
      print(ownersTable(rows, colors));
    });

  owners
    .command("add")
    .description("make a person an instance owner (they need a Switchboard account)")
    .argument("<email>", "the email they sign in with")
    .action(async (email: string, _options, command: Command) => {
      const { client, json } = contextOf(command);
      const { owner } = await client.post<{ owner: InstanceOwnerWire }>(OWNERS_PATH, { email });
      if (json) return printJson(owner);
      print(`${owner.email} is now an instance owner.`);
    });

  owners
    .command("remove")
    .description("no longer an instance owner (their account and workspace roles stay)")
    .argument("<owner>", "email or user id")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (ref: string, options: { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const owner = findOwner(await listOwners(client), ref);
      const question = `Remove ${owner.email} from the instance owners? Owner keys they made stop acting as an owner.`;
      if (!(await confirmedOrYes(question, options))) return print("Nobody removed.");
      await client.delete(`${OWNERS_PATH}/${segment(owner.userId)}`);
      print(`${owner.email} is no longer an instance owner.`);
    });
}

function printOverview(overview: InstanceOverviewWire, colors: Colors): void {
  const { policy, owners, stdio } = overview;
  const list = (items: string[], none: string) => (items.length > 0 ? items.join(", ") : none);
  const allowed = (on: boolean) => (on ? "allowed" : "refused");
  print(
    renderFields(
      [
        [
          "Owners",
          owners.length > 0
            ? owners.map((o) => `${o.name} <${o.email}>`)
            : "none yet: the person who completes first-run setup becomes the first",
        ],
        ["Stdio servers run as", [stdio.runsAs, ...stdio.notes]],
        ["Search path", overview.searchPath ?? ""],
        ["fromEnv may read", list(policy.fromEnv.allowed, "none")],
        ["Launch variables", list(policy.stdio.allowedEnv, "none")],
        ["Working folders", policy.stdio.cwdRoots],
        ["Schemes", list(policy.http.allowedSchemes, "none")],
        ["Loopback", allowed(policy.http.allowLoopback)],
        ["Private networks", allowed(policy.http.allowPrivate)],
        ["Denied hosts", list(policy.http.denyHosts, "none")],
        [
          "Workspaces",
          policy.workspaceCreation === "members"
            ? "created by any signed-in person"
            : "created by instance owners only",
        ],
      ],
      colors,
    ),
  );
  print(`\n${colors.bold("Launch specs")} (the program on Switchboard's PATH, then the arguments allowed)`);
  if (policy.stdio.launchSpecs.length === 0) {
    print("None: no stdio server may start.");
    return;
  }
  print(
    renderTable(
      policy.stdio.launchSpecs,
      [
        { header: "Launch", value: (s) => formatLaunchSpec(s), max: 100 },
        { header: "Audience", value: (s) => audienceOf(s) },
        { header: "Why", value: (s) => s.why ?? "", max: 70 },
      ],
      colors,
    ),
  );
}

function ownersTable(rows: InstanceOwnerWire[], colors: Colors): string {
  return renderTable(
    rows,
    [
      { header: "Name", value: (o) => o.name },
      { header: "Email", value: (o) => o.email },
      { header: "Since", value: (o) => formatTime(o.since) },
    ],
    colors,
  );
}

/** The file's JSON: the policy itself, or anything holding it under `policy` (GET answers, `instance --json`). */
function parsePolicy(text: string, file: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file === "-" ? "stdin" : file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new CliError(
      `${file === "-" ? "stdin" : file} is not a policy: expected a JSON object (see switchboard instance policy get).`,
    );
  }
  const wrapped = (value as { policy?: unknown }).policy;
  return wrapped && typeof wrapped === "object" && !Array.isArray(wrapped) ? wrapped : value;
}

async function listOwners(client: ApiClient): Promise<InstanceOwnerWire[]> {
  return (await client.get<{ owners: InstanceOwnerWire[] }>(OWNERS_PATH)).owners;
}

function findOwner(owners: InstanceOwnerWire[], ref: string): InstanceOwnerWire {
  const wanted = ref.toLowerCase();
  const owner = owners.find((o) => o.userId === ref || o.email.toLowerCase() === wanted);
  if (!owner) throw new CliError(`"${ref}" is not an instance owner. See switchboard instance owners.`);
  return owner;
}
