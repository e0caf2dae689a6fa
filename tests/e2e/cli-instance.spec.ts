import fs from "node:fs";
import path from "node:path";
import { type CliOptions, cliEnv, makeConfigHome, runCli } from "./cli-runner";
import { admin, expect, test } from "./fixtures";

/*
 * `switchboard instance`, its policy and owners, and the refusals the instance policy makes, through
 * the real binary against the e2e server with the bootstrap key (an owner key). The specs share one
 * server: every test that changes a policy puts the original back, and removes what it registered.
 */

const root = process.cwd();
const localTools = path.join(root, "demo-servers", "local-tools.ts");
/** A variable no server may read until the test allows it (and unset in the server's environment). */
const VARIABLE = "CLI_E2E_REGION";

let configHome: string;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], options: CliOptions = {}) => runCli(args, env, options);
const withKey = (key: string) => ({ ...env, SWITCHBOARD_API_KEY: key });

type Policy = { fromEnv: { allowed: string[] }; stdio: { launchSpecs: unknown[] } };

test.beforeEach(({ baseURL }) => {
  configHome = makeConfigHome();
  env = cliEnv(baseURL as string, configHome);
});

test.describe("switchboard instance", () => {
  test("shows the owners, who stdio servers run as, and the default launch specs with their audience", async () => {
    expect((await cli(["--help"])).stdout).toMatch(/\n {2}instance\b/);
    const shown = await cli(["instance"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`Owners\\s+${admin.name} <${admin.email}>`));
    expect(shown.stdout).toMatch(/Stdio servers run as\s+\S+/);
    expect(shown.stdout).toMatch(/fromEnv may read\s+none/);
    expect(shown.stdout).toMatch(/Workspaces\s+created by instance owners only/);
    expect(shown.stdout).toMatch(/^LAUNCH\s+AUDIENCE\s+WHY/m);
    for (const spec of [
      "npx -y {package} …",
      "uvx {package} …",
      "node {file} …",
      "docker run {docker-run-options} {image} …",
    ]) {
      expect(shown.stdout).toMatch(new RegExp(`^${escapeRegExp(spec)}\\s+owners only`, "m"));
    }
    // The demo servers, word for word, for every workspace.
    expect(shown.stdout).toMatch(
      new RegExp(`^node --import tsx ${escapeRegExp(localTools)}\\s+everyone`, "m"),
    );

    const json = JSON.parse((await cli(["instance", "--json"])).stdout);
    expect(json.policy.stdio.launchSpecs).toContainEqual(
      expect.objectContaining({ program: "npx", args: ["-y", "{package}"], rest: true, audience: "owners" }),
    );
    expect(json.owners.map((o: { email: string }) => o.email)).toContain(admin.email);
    expect(json.stdio).toEqual(
      expect.objectContaining({ runsAs: expect.any(String), notes: expect.any(Array) }),
    );
  });

  test("owners: listed; a person without an account cannot be named; the last owner stays", async () => {
    const listed = await cli(["instance", "owners"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^NAME\s+EMAIL\s+SINCE/);
    expect(listed.stdout).toMatch(new RegExp(`${admin.name}\\s+${admin.email}`));
    const owners = JSON.parse((await cli(["instance", "owners", "--json"])).stdout) as Array<{
      email: string;
    }>;

    const unknown = await cli(["instance", "owners", "add", "nobody-here@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Nobody with the email nobody-here@example.com has an account");
    const notOwner = await cli(["instance", "owners", "remove", "nobody-here@example.com", "--yes"]);
    expect(notOwner.code).toBe(1);
    expect(notOwner.stderr).toContain('"nobody-here@example.com" is not an instance owner');
    expect((await cli(["instance", "owners", "remove", admin.email])).code).toBe(2); // no terminal, no --yes
    if (owners.length === 1) {
      const last = await cli(["instance", "owners", "remove", admin.email, "--yes"]);
      expect(last.code).toBe(1);
      expect(last.stderr).toContain("keeps at least one owner");
    }
  });

  test("only instance authority: an admin key gets 403 (exit 3); only a signed-in owner makes an owner key", async () => {
    const adminKey = await cli(["keys", "create", "cli-instance-admin"]);
    // A key made by a key would outlive the person's authority: the owner scope is a person's to give.
    const ownerKey = await cli([
      "keys",
      "create",
      "cli-instance-owner",
      "--scope",
      "admin",
      "--scope",
      "owner",
    ]);
    expect(ownerKey.code).toBe(3);
    expect(ownerKey.stderr).toContain("created by a signed-in instance owner");
    try {
      const refused = await runCli(["instance"], withKey(adminKey.stdout.trim()));
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain("Only an instance owner can do this");
      // The bootstrap key (configured on the machine) is an owner's.
      const allowed = await cli(["instance", "policy", "get"]);
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(JSON.parse(allowed.stdout)).toHaveProperty("stdio.launchSpecs");
    } finally {
      await cli(["keys", "revoke", "cli-instance-admin", "--yes"]);
    }
  });

  test("policy get → edit → set: fromEnv allowed; narrowing it back is refused until --disable-affected", async ({
    api,
  }) => {
    const got = await cli(["instance", "policy", "get"]);
    expect(got.code, got.stderr).toBe(0);
    const original = JSON.parse(got.stdout) as Policy;
    const addWithVariable = [
      "servers",
      "add",
      "cli-from-env",
      "--env-from",
      `REGION=${VARIABLE}`,
      "--",
      "node",
      "--import",
      "tsx",
      localTools,
    ];
    try {
      // Not allowed yet: refused by the instance policy, naming the rule and who can allow it.
      const before = await cli(addWithVariable);
      expect(before.code).toBe(6);
      expect(before.stderr).toContain("Refused by the instance policy (fromEnv.allowed)");
      expect(before.stderr).toContain(`ask an instance owner to allow ${VARIABLE}`);

      const edited = structuredClone(original);
      edited.fromEnv.allowed = [...edited.fromEnv.allowed, VARIABLE];
      const set = await cli(["instance", "policy", "set", "-"], { input: JSON.stringify(edited) });
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain("Saved the instance policy.");
      expect((await cli(["instance"])).stdout).toMatch(new RegExp(`fromEnv may read\\s+${VARIABLE}`));
      const file = path.join(configHome, "policy.json");
      fs.writeFileSync(file, JSON.stringify(original));

      const added = await cli(addWithVariable);
      expect(added.code, added.stderr).toBe(0);

      // The original policy would refuse that server: nothing is saved, the server is named.
      const narrowing = await cli(["instance", "policy", "set", file]);
      expect(narrowing.code).toBe(1);
      expect(narrowing.stderr).toContain(
        "Nothing was saved: the instance policy would refuse a registered server:",
      );
      expect(narrowing.stderr).toMatch(/\n {2}cli-from-env \(in .+\): .*CLI_E2E_REGION/);
      expect(narrowing.stderr).toContain("rerun with --disable-affected");
      expect((await cli(["instance"])).stdout).toMatch(new RegExp(`fromEnv may read\\s+${VARIABLE}`));

      const confirmed = await cli(["instance", "policy", "set", file, "--disable-affected"]);
      expect(confirmed.code, confirmed.stderr).toBe(0);
      expect(confirmed.stdout).toMatch(
        /Disabled 1 server the policy no longer allows:\n {2}cli-from-env \(in /,
      );
      expect((await cli(["instance"])).stdout).toMatch(/fromEnv may read\s+none/);
      const server = JSON.parse((await cli(["servers", "show", "cli-from-env", "--json"])).stdout);
      expect(server.enabled).toBe(false);
      expect(server.lastError).toContain("Disabled: the instance policy no longer allows this server");
      expect(JSON.parse((await cli(["instance", "policy", "get"])).stdout)).toEqual(original);
    } finally {
      await api.put("/api/v1/instance/policy?disableAffected=true", { data: original });
      await cli(["servers", "remove", "cli-from-env", "--yes"]);
    }
  });

  test("a launch that runs code given on the command line is refused, with the rule and who can allow it", async () => {
    const refused = await cli(["servers", "add", "cli-eval", "--", "node", "-e", "console.log(process.env)"]);
    expect(refused.code).toBe(6); // denied
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(
      /^error: Refused by the instance policy \(stdio\.(codeOptions|launchSpecs)\): /,
    );
    expect(refused.stderr).toContain("Only an instance owner can allow");
    expect((await cli(["servers", "list"])).stdout).not.toContain("cli-eval");

    // An import entry with a ${VAR} the policy does not allow fails with the same reason.
    const file = path.join(configHome, "mcp.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          "cli-region": {
            command: "node",
            args: ["--import", "tsx", localTools],
            env: { REGION: `\${${VARIABLE}}` },
          },
        },
      }),
    );
    const imported = await cli(["import", file, "--dry-run"]);
    expect(imported.code).toBe(1);
    expect(imported.stdout).toContain(
      `✗ cli-region: Refused by the instance policy (fromEnv.allowed): the instance policy does not let servers read the environment variable ${VARIABLE}.`,
    );
  });

  test("policy egress shows what is effective within the instance policy; narrowing it asks for --disable-affected", async ({
    api,
  }) => {
    const original = ((await (await api.get("/api/v1/policy/egress")).json()) as { policy: unknown }).policy;
    try {
      const shown = await cli(["policy", "egress"]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/^Commands\s+node/);
      expect(shown.stdout).toMatch(/Effective \(this policy within the instance policy\)/);
      expect(shown.stdout).toMatch(/Launches\s+npx -y \{package\} … {2}\(owners only\)/);

      const added = await cli(["servers", "add", "cli-egress-victim", "http://127.0.0.9:9/mcp"]);
      expect(added.code, added.stderr).toBe(0);
      const narrowing = await cli(["policy", "egress", "--deny-hosts", "127.0.0.9"]);
      expect(narrowing.code).toBe(1);
      expect(narrowing.stderr).toContain(
        "Nothing was saved: the egress policy would refuse a registered server:",
      );
      expect(narrowing.stderr).toMatch(/\n {2}cli-egress-victim \(in /);
      expect(narrowing.stderr).toContain("--disable-affected");

      const confirmed = await cli(["policy", "egress", "--deny-hosts", "127.0.0.9", "--disable-affected"]);
      expect(confirmed.code, confirmed.stderr).toBe(0);
      expect(confirmed.stdout).toMatch(/Denied hosts\s+127\.0\.0\.9/);
      expect(confirmed.stdout).toMatch(
        /Disabled 1 server the policy no longer allows:\n {2}cli-egress-victim/,
      );
      const server = JSON.parse((await cli(["servers", "show", "cli-egress-victim", "--json"])).stdout);
      expect(server.enabled).toBe(false);
    } finally {
      await api.put("/api/v1/policy/egress?disableAffected=true", { data: original });
      await cli(["servers", "remove", "cli-egress-victim", "--yes"]);
    }
  });
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
