import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { e2eServerLog } from "../../playwright.config";
import { startFakeModelServer } from "../fixtures/fake-model-server";
import { BackgroundCli, type CliOptions, cliEnv, makeConfigHome, runCli } from "./cli-runner";
import { expect, signedOutContext, test } from "./fixtures";

/*
 * The real `switchboard` binary against the real e2e server (next start). Each test runs the CLI
 * as a child process and checks what a person or a script sees: output, files and exit codes.
 * Each test registers servers of its own (copies of the local-tools demo), so classifying their
 * tools never changes what other specs see.
 */

const root = process.cwd();
const localTools = path.join(root, "demo-servers", "local-tools.ts");
const CANARY = `canary-cli-${Date.now()}-do-not-leak`;

/** A client-side placeholder such as ${VAR}, written without tripping the template-string lint. */
const ref = (inner: string) => `\${${inner}}`;

let configHome: string;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], options: CliOptions = {}) =>
  runCli(args, options.env ? cliEnvWith(options.env) : env, options);
const cliEnvWith = (extra: Record<string, string | undefined>) => {
  const merged: Record<string, string | undefined> = { ...env, ...extra };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged as NodeJS.ProcessEnv;
};

test.beforeEach(({ baseURL }) => {
  configHome = makeConfigHome();
  env = cliEnv(baseURL as string, configHome);
});

test.describe("switchboard CLI: help and failures", () => {
  test("--help documents the commands and the exit codes", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    for (const command of [
      "servers",
      "tools",
      "call",
      "calls",
      "approvals",
      "agent",
      "events",
      "principals",
      "gateway",
      "policy",
      "keys",
      "members",
      "audit",
      "import",
      "export",
    ]) {
      expect(help.stdout).toMatch(new RegExp(`\\n  ${command}\\b`));
    }
    expect(help.stdout).toContain("4  unreachable");
    const servers = await cli(["servers", "--help"]);
    expect(servers.stdout).toMatch(/list[\s\S]*show[\s\S]*add[\s\S]*remove[\s\S]*diagnostics/);
    expect((await cli(["servers", "frobnicate"])).code).toBe(2);
    expect((await cli(["export", "--format", "notepad"])).code).toBe(2);
  });

  test("a wrong key exits 3 with the server's message, on one line", async () => {
    const result = await cli(["servers", "list"], {
      env: { SWITCHBOARD_API_KEY: "sb_wrong-key-0000000000000000" },
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: .*key/i);
  });

  test("no key at all exits 3 and says how to give one", async () => {
    const result = await cli(["servers", "list"], { env: { SWITCHBOARD_API_KEY: undefined } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("switchboard login");
  });

  test("an unreachable Switchboard exits 4 and prints the URL it tried", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await cli(["servers", "list", "--url", url]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`Could not reach Switchboard at ${url}`);
  });

  test("login checks the key, saves URL and key with mode 0600, and later commands use them", async ({
    baseURL,
  }) => {
    const withoutEnv = { SWITCHBOARD_URL: undefined, SWITCHBOARD_API_KEY: undefined };
    const url = baseURL as string;
    const refused = await cli(["login", "--url", url], {
      env: withoutEnv,
      input: "sb_not-a-real-key-000000000\n",
    });
    expect(refused.code).toBe(3);
    // It has the prefix: the problem is the key, not its shape.
    expect(refused.stderr).toContain("error: The API key is not valid");
    expect(refused.stderr).not.toContain("start with sb_");
    expect(refused.stderr.endsWith("\n")).toBe(true);
    const file = path.join(configHome, "switchboard", "config.json");
    expect(fs.existsSync(file)).toBe(false);

    const key = env.SWITCHBOARD_API_KEY as string;
    const login = await cli(["login", "--url", url], { env: withoutEnv, input: `${key}\n` });
    expect(login.code, login.stderr).toBe(0);
    // Progress and the result each end their line: nothing left for the shell prompt to run into.
    expect(login.stderr).toBe(`Checking ${url}…\n`);
    expect(login.stdout).toMatch(/^Logged in to .*\.\n$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ url, apiKey: key });

    const list = await cli(["servers", "list"], { env: withoutEnv });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+TRANSPORT\s+STATUS\s+TARGET/);
    expect(list.stdout).toContain("local-tools");
  });
});

test.describe("switchboard CLI: servers", () => {
  test("add a server, see it listed and its tools discovered, then remove it", async () => {
    const add = await cli([
      "servers",
      "add",
      "cli-tools",
      "--display-name",
      "CLI tools",
      "--",
      "node",
      "--import",
      "tsx",
      localTools,
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain("Registered cli-tools (stdio)");

    const list = await cli(["servers", "list"]);
    expect(list.stdout).toMatch(/cli-tools\s+stdio/);
    const shown = JSON.parse((await cli(["servers", "show", "cli-tools", "--json"])).stdout);
    expect(shown).toMatchObject({ name: "cli-tools", displayName: "CLI tools", command: "node" });

    // Discovery runs in the background: the catalog appears once the server has connected.
    await expect
      .poll(async () => (await cli(["servers", "tools", "cli-tools"])).stdout, { timeout: 30_000 })
      .toMatch(/echo\s+cli-tools__echo\s+unclassified/);
    const tools = JSON.parse((await cli(["servers", "tools", "cli-tools", "--json"])).stdout);
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual([
      "current_time",
      "echo",
      "word_count",
      "write_note",
    ]);
    const listed = await cli(["tools", "list", "--server", "cli-tools"]);
    expect(listed.stdout).toMatch(/cli-tools__word_count\s+external-write \(unclassified\)/);
    const diagnostics = await cli(["servers", "diagnostics", "cli-tools"]);
    expect(diagnostics.stdout).toMatch(/State\s+ready/);

    const unconfirmed = await cli(["servers", "remove", "cli-tools"]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("--yes");
    expect((await cli(["servers", "remove", "cli-tools", "--yes"])).code).toBe(0);
    expect((await cli(["servers", "list"])).stdout).not.toContain("cli-tools");
    const gone = await cli(["servers", "show", "cli-tools"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('There is no server named "cli-tools"');
  });
});

test.describe("switchboard CLI: classifying tools", () => {
  test("tools classify --server --effect classifies many tools at once, and an unknown one changes none", async () => {
    await addDemoServer("cli-bulk");
    try {
      const refused = await cli([
        "tools",
        "classify",
        "--server",
        "cli-bulk",
        "--effect",
        "read",
        "echo",
        "nope",
      ]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('There is no tool "nope" on server "cli-bulk"; nothing was changed.');

      const bulk = await cli([
        "tools",
        "classify",
        "--server",
        "cli-bulk",
        "--effect",
        "read",
        "echo",
        "word_count",
        "cli-bulk__current_time",
      ]);
      expect(bulk.code, bulk.stderr).toBe(0);
      expect(bulk.stdout).toContain("cli-bulk__echo: effect read.");
      expect(bulk.stdout).toContain("cli-bulk__current_time: effect read.");
      const listed = await cli(["tools", "list", "--server", "cli-bulk"]);
      expect(listed.stdout).toMatch(/cli-bulk__word_count\s+read\s/);
      expect(listed.stdout).toMatch(/cli-bulk__write_note\s+external-write \(unclassified\)/);

      // "never" on an unclassified tool would do nothing: refused, with the reason.
      const never = await cli([
        "tools",
        "classify",
        "--server",
        "cli-bulk",
        "--effect",
        "unclassified",
        "--approval",
        "never",
        "echo",
      ]);
      expect(never.code).not.toBe(0);
      expect(never.stderr).toMatch(/Classify cli-bulk__echo .*before exempting it from approval/);
      expect((await cli(["tools", "list", "--server", "cli-bulk"])).stdout).toMatch(
        /cli-bulk__echo\s+read\s/,
      );
    } finally {
      await cli(["servers", "remove", "cli-bulk", "--yes"]);
    }
  });
});

test.describe("switchboard CLI: import and export", () => {
  test("import moves credentials into secrets; a dry run writes nothing; importing again changes nothing", async () => {
    const file = writeConfig("claude-code.json", {
      mcpServers: {
        "CLI Imported": {
          type: "stdio",
          command: "node",
          args: ["--import", "tsx", localTools],
          env: { API_TOKEN: CANARY, LOG_LEVEL: "info" },
        },
        "cli-remote": {
          type: "http",
          url: "http://127.0.0.1:9/mcp",
          headers: { Authorization: `Bearer ${CANARY}-bearer` },
          disabled: true,
        },
      },
    });

    const dry = await cli(["import", file, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/CLI Imported\s+cli-imported\s+would create\s+cli-imported-api-token/);
    expect(dry.stdout).toMatch(/cli-remote\s+cli-remote\s+would create\s+cli-remote-authorization/);
    expect(dry.stdout).toContain("Dry run (nothing written)");
    expect((await cli(["servers", "list"])).stdout).not.toContain("cli-imported");

    const applied = await cli(["import", file]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/cli-imported\s+created/);
    const imported = JSON.parse((await cli(["servers", "show", "cli-imported", "--json"])).stdout);
    expect(imported).toMatchObject({
      displayName: "CLI Imported",
      env: { API_TOKEN: { secret: "cli-imported-api-token", isSet: true }, LOG_LEVEL: "info" },
    });
    const remote = JSON.parse((await cli(["servers", "show", "cli-remote", "--json"])).stdout);
    expect(remote).toMatchObject({
      enabled: false,
      auth: { type: "bearer", credential: { secret: "cli-remote-authorization", isSet: true } },
    });
    const secrets = await cli(["secrets", "list"]);
    expect(secrets.stdout).toContain("cli-imported-api-token");

    const again = JSON.parse((await cli(["import", file, "--json"])).stdout);
    expect(again.summary).toEqual({ create: 0, update: 0, unchanged: 2, error: 0 });

    // The imported server really runs, with its secret resolved at connect time.
    await expect
      .poll(async () => (await cli(["servers", "show", "cli-imported", "--json"])).stdout, {
        timeout: 30_000,
      })
      .toContain('"status": "ready"');

    for (const output of [dry, applied, secrets]) expect(output.stdout + output.stderr).not.toContain(CANARY);
    expect(JSON.stringify(again)).not.toContain(CANARY);
    expect(fs.readFileSync(e2eServerLog, "utf8")).not.toContain(CANARY);
    for (const name of ["cli-imported", "cli-remote"]) await cli(["servers", "remove", name, "--yes"]);
  });

  test("bad files: not JSON (line and column), missing, or entries without a command or url", async () => {
    const broken = writeConfig(
      "broken.json",
      '{\n  "mcpServers": {\n    "a": {"command": "node"}\n    "b": {}\n  }\n}',
    );
    const notJson = await cli(["import", broken]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain("not valid JSON: line 4, column 5");

    const missing = await cli(["import", path.join(configHome, "nope.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read .*nope\.json: no such file/);

    const partial = writeConfig("partial.json", {
      mcpServers: { "cli-empty": {}, "cli-ok": { command: "node", args: ["x.js"] } },
    });
    const result = await cli(["import", partial, "--dry-run"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("cli-empty: The entry has neither a command (stdio) nor a url (HTTP).");
    expect(result.stdout).toMatch(/cli-ok\s+cli-ok\s+would create/);
    expect(result.stderr).toContain("1 of 2 entries could not be imported");
  });

  test("export prints a client configuration for the gateway, and Claude Code permissions", async ({
    baseURL,
  }) => {
    await addDemoServer("cli-export");
    expect((await cli(["tools", "classify", "cli-export__echo", "read"])).code).toBe(0);
    expect((await cli(["tools", "classify", "cli-export__word_count", "destructive"])).code).toBe(0);

    const code = await cli(["export", "--format", "claude-code"]);
    expect(code.code, code.stderr).toBe(0);
    const config = JSON.parse(code.stdout);
    expect(config.mcpServers.switchboard).toEqual({
      type: "http",
      url: `${baseURL}/mcp`,
      headers: { Authorization: `Bearer ${ref("SWITCHBOARD_API_KEY")}` },
    });
    expect(code.stdout).not.toContain(env.SWITCHBOARD_API_KEY as string);

    // read → allowed; destructive and unclassified (enforced as external-write) → Claude Code asks.
    const { permissions } = JSON.parse(
      (await cli(["export", "--format", "claude-code", "--permissions"])).stdout,
    );
    expect(permissions.allow).toContain("mcp__switchboard__cli-export__echo");
    expect(permissions.ask).toContain("mcp__switchboard__cli-export__word_count");
    expect(permissions.ask).toContain("mcp__switchboard__cli-export__current_time");
    expect(permissions.allow).not.toContain("mcp__switchboard__cli-export__word_count");
    expect(permissions.allow).toContain("mcp__switchboard__switchboard__wait_call");

    const out = path.join(configHome, "mcp.json");
    expect((await cli(["export", "--format", "vscode", "-o", out])).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, "utf8")).inputs[0]).toMatchObject({
      id: "switchboard-api-key",
      password: true,
    });

    const whole = JSON.parse((await cli(["export", "--format", "claude-desktop", "--json"])).stdout);
    expect(whole).toMatchObject({ format: "claude-desktop", fileName: "claude_desktop_config.json" });
    expect(whole.config.mcpServers.switchboard.args).toContain("mcp-remote@0.15.1");
    expect(whole.gatewayUrl).toBe(`${baseURL}/mcp`);
    expect((await cli(["servers", "remove", "cli-export", "--yes"])).code).toBe(0);
  });
});

test.describe("switchboard CLI: gateway and policy", () => {
  test("gateway status shows where clients connect; loopback maps keyless requests to a principal and off", async ({
    baseURL,
  }) => {
    const status = await cli(["gateway", "status"]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`${baseURL}/mcp`);
    expect(status.stdout).toMatch(new RegExp(`Discovery\\s+${baseURL}/mcp/discover`));
    // The connection hints go to stderr, beside the output rather than in it.
    expect(status.stderr).toContain(`claude mcp add --transport http switchboard ${baseURL}/mcp/discover`);
    expect(status.stdout).toMatch(/Without a key\s+refused/);

    expect((await cli(["principals", "create", "cli-local-agent"])).code).toBe(0);
    const keyless = () =>
      fetch(`${baseURL}/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      }).then((r) => r.status);
    try {
      const on = await cli(["gateway", "loopback", "cli-local-agent"]);
      expect(on.code, on.stderr).toBe(0);
      expect(on.stdout).toContain("acts as cli-local-agent");
      expect(await keyless()).toBe(200);
    } finally {
      const off = await cli(["gateway", "loopback", "off"]);
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toMatch(/refused/);
    }
    expect(await keyless()).toBe(401);
    expect((await cli(["gateway", "loopback", "nobody-by-that-name"])).code).not.toBe(0);
  });

  test("gateway name-budget sets the longest tool name, shown by status; a bad value is refused with the range", async () => {
    try {
      const set = await cli(["gateway", "name-budget", "40"]);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain("at most 40 characters");
      expect((await cli(["gateway", "status"])).stdout).toMatch(/Name budget\s+40 characters/);
      const bad = await cli(["gateway", "name-budget", "99"]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/whole number from 32 to 64/);
    } finally {
      const restored = await cli(["gateway", "name-budget", "46"]);
      expect(restored.code, restored.stderr).toBe(0);
    }
  });

  test("policy approvals and egress show the workspace's rules, and each option changes only its field", async ({
    api,
  }) => {
    const originalRules = ((await (await api.get("/api/v1/policy/approvals")).json()) as { policy: unknown })
      .policy;
    const originalEgress = ((await (await api.get("/api/v1/policy/egress")).json()) as { policy: unknown })
      .policy;
    try {
      const shown = await cli(["policy", "approvals"]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/Needs approval\s+external-write, destructive/);
      expect(shown.stdout).toMatch(/Expiry\s+600 s/);

      const changed = await cli(["policy", "approvals", "--expiry", "120", "--self-approval", "forbidden"]);
      expect(changed.code, changed.stderr).toBe(0);
      expect(changed.stdout).toMatch(/Self-approval\s+forbidden/);
      // The field not given is kept, not reset to its default.
      expect(changed.stdout).toMatch(/Needs approval\s+external-write, destructive/);
      const stored = (await (await api.get("/api/v1/policy/approvals")).json()) as {
        policy: { expirySeconds: number; forbidSelfApproval: boolean; requireApprovalFor: string[] };
      };
      expect(stored.policy).toEqual({
        requireApprovalFor: ["external-write", "destructive"],
        forbidSelfApproval: true,
        expirySeconds: 120,
      });
      // Refused by the server with its message; by the CLI itself for a malformed value.
      const refused = await cli(["policy", "approvals", "--require", "reckless"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("Effects are read, write, external-write and destructive.");
      expect((await cli(["policy", "approvals", "--expiry", "ten"])).code).toBe(2);
      // An empty list (a lost shell variable, most likely) is refused, not taken for "none".
      expect((await cli(["policy", "approvals", "--require", ""])).code).toBe(2);

      const egress = await cli(["policy", "egress", "--deny-hosts", "evil.example.com", "--json"]);
      expect(egress.code, egress.stderr).toBe(0);
      const body = JSON.parse(egress.stdout) as {
        stdio: { allowedCommands: string[] };
        http: { denyHosts: string[] };
      };
      expect(body.http.denyHosts).toEqual(["evil.example.com"]);
      expect(body.stdio.allowedCommands).toContain("node");
      const refusedServer = await cli(["servers", "add", "cli-evil", "https://evil.example.com/mcp"]);
      expect(refusedServer.code).toBe(6); // refused by policy
      expect(refusedServer.stderr).toContain("evil.example.com");
      // The same on an allowed host registers an HTTP server (named by its URL, as in `claude mcp add`).
      const added = await cli([
        "servers",
        "add",
        "cli-http",
        "https://mcp.example.com/mcp",
        "--disabled",
        "--json",
      ]);
      expect(added.code, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({
        transport: "streamable-http",
        url: "https://mcp.example.com/mcp",
      });
      expect((await cli(["servers", "remove", "cli-http", "--yes"])).code).toBe(0);
    } finally {
      await api.put("/api/v1/policy/approvals", { data: originalRules });
      await api.put("/api/v1/policy/egress", { data: originalEgress });
    }
  });
});

test.describe("switchboard CLI: calls, approvals and events", () => {
  test("a call that needs approval waits, is approved from a second CLI process, and events tail sees it", async ({
    api,
  }) => {
    await addDemoServer("cli-calls");
    // An agent of its own, granted this server's tools; echo is read (runs at once), word_count is
    // unclassified (external-write: held for approval by the default policy).
    expect((await cli(["principals", "create", "cli-agent"])).code).toBe(0);
    const grant = await cli(["principals", "grant", "cli-agent", "cli-calls__*"]);
    expect(grant.stdout).toContain("cli-agent may call: cli-calls__*");
    const created = await cli(["principals", "keys", "cli-agent", "--create", "--name", "e2e"]);
    expect(created.code, created.stderr).toBe(0);
    const agentEnv = cliEnvWith({ SWITCHBOARD_API_KEY: created.stdout.trim() });
    expect((await cli(["tools", "classify", "cli-calls__echo", "read"])).code).toBe(0);

    const echo = await runCli(["call", "cli-calls__echo", "--arg", "text=hello from the CLI"], agentEnv);
    expect(echo.code, echo.stderr).toBe(0);
    expect(echo.stdout.trim()).toBe("hello from the CLI");

    // Follow the events from here on (--since: nothing between now and the tail connecting is lost).
    const latest = (await (await api.get("/api/v1/events?limit=1")).json()).events[0]?.id ?? 0;
    const tail = new BackgroundCli(
      ["events", "tail", "--type", "call.", "--server", "cli-calls", "--since", String(latest), "--json"],
      env,
    );
    const waiting = new BackgroundCli(
      ["call", "cli-calls__word_count", "--json", '{"text": "one two three"}'],
      agentEnv,
    );
    try {
      await waiting.waitFor(/Waiting for approval of cli-calls__word_count \(call \S+\)/);
      const callId = /\(call (\S+)\)/.exec(waiting.stderr)?.[1] as string;
      const queue = await cli(["approvals", "list"]);
      expect(queue.stdout).toMatch(new RegExp(`${callId}\\s+cli-calls__word_count\\s+pending\\s+cli-agent`));

      // Approved by the call's id, as printed by the waiting process.
      const approved = await cli(["approvals", "approve", callId, "--reason", "looks fine"]);
      expect(approved.code, approved.stderr).toBe(0);
      expect(await waiting.exited).toBe(0);
      expect(waiting.stdout).toContain("3 words, 13 characters, 1 lines");
      const again = await cli(["approvals", "approve", callId]);
      expect(again.code).toBe(1);

      await tail.waitFor(/"type":"call.succeeded"/);
      const types = tail.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .filter((event) => event.callId === callId)
        .map((event) => event.type);
      expect(types).toEqual([
        "call.requested",
        "call.approval_required",
        "call.approved",
        "call.started",
        "call.succeeded",
      ]);

      const shown = await cli(["calls", "show", callId]);
      expect(shown.stdout).toMatch(/Status\s+succeeded/);
      expect(shown.stdout).toContain("call.approved");
      expect((await cli(["calls", "list", "--tool", "cli-calls__word_count"])).stdout).toContain(callId);
    } finally {
      tail.stop();
      waiting.stop();
    }
  });

  test("a denied call exits 6 with the reason; a tool error exits 5; a key without a principal exits 3", async () => {
    await addDemoServer("cli-deny");
    expect((await cli(["principals", "create", "cli-deny-agent"])).code).toBe(0);
    const granted = await cli([
      "principals",
      "grant",
      "cli-deny-agent",
      "cli-deny__word_count",
      "cli-deny__current_time",
    ]);
    expect(granted.code).toBe(0);
    const key = (await cli(["principals", "keys", "cli-deny-agent", "--create"])).stdout.trim();
    const agentEnv = cliEnvWith({ SWITCHBOARD_API_KEY: key });

    const waiting = new BackgroundCli(["call", "cli-deny__word_count", "--arg", "text=x"], agentEnv);
    try {
      await waiting.waitFor(/Waiting for approval/);
      const callId = /\(call (\S+)\)/.exec(waiting.stderr)?.[1] as string;
      expect((await cli(["approvals", "deny", callId, "--reason", "not today"])).code).toBe(0);
      expect(await waiting.exited).toBe(6);
      expect(waiting.stderr).toContain("not today");
    } finally {
      waiting.stop();
    }

    // Not granted: refused by policy before anything runs.
    const ungranted = await runCli(["call", "cli-deny__echo", "--arg", "text=hi"], agentEnv);
    expect(ungranted.code).toBe(6);

    // The tool itself reports an error (an unknown time zone): exit 5, with its message printed.
    expect((await cli(["tools", "classify", "cli-deny__current_time", "read"])).code).toBe(0);
    const toolError = await runCli(
      ["call", "cli-deny__current_time", "--arg", "timeZone=Nowhere/Atlantis"],
      agentEnv,
    );
    expect(toolError.code, toolError.stderr).toBe(5);
    expect(toolError.stdout).toContain('unknown time zone "Nowhere/Atlantis"');

    const asAdmin = await cli(["call", "cli-deny__word_count", "--arg", "text=x"]);
    expect(asAdmin.code).toBe(3);
    expect(asAdmin.stderr).toContain("belongs to no principal");

    // A revoked key stops at once; a second key keeps working until its principal is deleted.
    const second = (
      await cli(["principals", "keys", "cli-deny-agent", "--create", "--name", "spare"])
    ).stdout.trim();
    expect((await cli(["principals", "revoke", "cli-deny-agent", "cli"])).code).toBe(2); // no terminal, no --yes
    const revoked = await cli(["principals", "revoke", "cli-deny-agent", "cli", "--yes"]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/^Revoked cli \(sb_/);
    expect((await runCli(["call", "cli-deny__word_count", "--arg", "text=x"], agentEnv)).code).toBe(3);
    const spareEnv = cliEnvWith({ SWITCHBOARD_API_KEY: second });
    expect((await runCli(["call", "cli-deny__echo", "--arg", "text=hi"], spareEnv)).code).toBe(6);
    expect((await cli(["principals", "revoke", "cli-deny-agent", "cli", "--yes"])).stderr).toContain(
      'has no active key "cli"',
    );
    const removed = await cli(["principals", "remove", "cli-deny-agent", "--yes"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await runCli(["call", "cli-deny__echo", "--arg", "text=hi"], spareEnv)).code).toBe(3);
    expect((await cli(["principals", "list"])).stdout).not.toContain("cli-deny-agent");
  });
});

test.describe("switchboard CLI: agent runs", () => {
  test("a run is followed step by step, its held call approved from a second CLI; Ctrl-C cancels a run", async () => {
    const model = await startFakeModelServer();
    try {
      await addDemoServer("cli-agent-tools");
      expect((await cli(["principals", "create", "cli-run-agent"])).code).toBe(0);
      expect((await cli(["principals", "grant", "cli-run-agent", "cli-agent-tools__*"])).code).toBe(0);
      const added = await cli([
        "agent",
        "models",
        "add",
        "cli-scripted",
        "--base-url",
        model.baseUrl,
        "--model",
        "scripted-1",
      ]);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain("Added model connection cli-scripted (scripted-1).");
      expect((await cli(["agent", "models", "list"])).stdout).toMatch(
        /cli-scripted\s+http:\/\/127\.0\.0\.1:\d+\/v1\s+scripted-1/,
      );

      // word_count is unclassified: the run holds until someone approves its call.
      model.script([
        { toolCalls: [{ name: "cli-agent-tools__word_count", arguments: { text: "one two three" } }] },
        { text: "The text has 3 words." },
      ]);
      const run = new BackgroundCli(
        ["agent", "run", "cli-run-agent", "Count the words in 'one two three'.", "--model", "cli-scripted"],
        env,
      );
      try {
        await run.waitFor(/approve: switchboard approvals approve (\S+)/);
        const callId = /approve: switchboard approvals approve (\S+)/.exec(run.stdout)?.[1] as string;
        const runId = /^Run (\S+) as cli-run-agent on cli-scripted$/m.exec(run.stdout)?.[1] as string;
        expect(run.stdout).toContain("You  Count the words in 'one two three'.");
        expect(run.stdout).toContain('→ cli-agent-tools__word_count {"text":"one two three"}');
        expect(run.stdout).toContain("⏸ cli-agent-tools__word_count waits for approval");
        expect((await cli(["approvals", "approve", callId])).code).toBe(0);
        expect(await run.exited).toBe(0);
        expect(run.stdout).toContain(`← cli-agent-tools__word_count succeeded [call ${callId}]`);
        expect(run.stdout).toContain("3 words, 13 characters");
        expect(run.stdout).toMatch(
          /lines\nAnswer\nThe text has 3 words\.\nsucceeded \(2 rounds, 1 tool call, /,
        );
        expect(run.stdout).not.toContain("Model  The text has 3 words.");

        expect((await cli(["agent", "runs"])).stdout).toMatch(
          new RegExp(`${runId}\\s+cli-run-agent\\s+cli-scripted\\s+succeeded`),
        );
        const shown = await cli(["agent", "show", runId]);
        expect(shown.stdout).toMatch(/Status\s+succeeded/);
        expect(shown.stdout).toContain("The text has 3 words.");
      } finally {
        run.stop();
      }

      // A model that never answers: Ctrl-C cancels the run, which ends as cancelled (exit 1).
      model.script([{ hang: true }]);
      const stuck = new BackgroundCli(
        ["agent", "run", "cli-run-agent", "Wait forever.", "--model", "cli-scripted"],
        env,
      );
      try {
        await stuck.waitFor(/^Run (\S+) as cli-run-agent/m);
        const runId = /^Run (\S+) as/m.exec(stuck.stdout)?.[1] as string;
        stuck.child.kill("SIGINT");
        expect(await stuck.exited).toBe(1);
        expect(stuck.stderr).toContain(`Cancelling run ${runId}`);
        expect(stuck.stderr).toContain("The run ended as cancelled: cancelled by");
        const shown = JSON.parse((await cli(["agent", "show", runId, "--json"])).stdout);
        expect(shown.status).toBe("cancelled");
      } finally {
        stuck.stop();
      }

      // Refused up front: an unknown model connection, limits out of range.
      const unknown = await cli(["agent", "run", "cli-run-agent", "hi", "--model", "no-such-model"]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/model connection/i);
      const tooMany = await cli([
        "agent",
        "run",
        "cli-run-agent",
        "hi",
        "--model",
        "cli-scripted",
        "--max-rounds",
        "11",
      ]);
      expect(tooMany.code).toBe(1);
      expect(tooMany.stderr).toContain("maxRounds");

      expect((await cli(["agent", "models", "remove", "cli-scripted"])).code).toBe(0);
      expect((await cli(["agent", "models", "list"])).stdout).not.toContain("cli-scripted");
    } finally {
      await model.close();
    }
  });
});

test.describe("switchboard CLI: keys and members", () => {
  test("a key made with keys create works at once and stops at once when revoked", async () => {
    const created = await cli(["keys", "create", "cli-e2e-ci"]);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^sb_\S+$/);
    expect(created.stderr).toContain("shown once");
    const keyEnv = cliEnvWith({ SWITCHBOARD_API_KEY: key });
    expect((await runCli(["servers", "list"], keyEnv)).code).toBe(0); // admin by default

    const listed = await cli(["keys", "list"]);
    expect(listed.stdout).toMatch(/cli-e2e-ci\s+sb_\S+…\s+admin\s+the workspace/);
    expect(listed.stdout).not.toContain(key);
    expect((await cli(["keys", "create", "x", "--scope", "root"])).stderr).toContain('Unknown scope "root"');

    expect((await cli(["keys", "revoke", "cli-e2e-ci"])).code).toBe(2); // no terminal, no --yes
    const revoked = await cli(["keys", "revoke", "cli-e2e-ci", "--yes"]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const refused = await runCli(["servers", "list"], keyEnv);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("revoked");
    const json = JSON.parse((await cli(["keys", "list", "--json"])).stdout) as Array<{
      name: string;
      revokedAt: string | null;
    }>;
    expect(json.find((k) => k.name === "cli-e2e-ci")?.revokedAt).toBeTruthy();
    expect((await cli(["keys", "revoke", "cli-e2e-ci", "--yes"])).stderr).toContain(
      'no active key "cli-e2e-ci"',
    );

    // The audit trail names the key that did it (the CLI's own) and the key it was done to.
    const audit = await cli(["audit", "--action", "api_key", "--limit", "2"]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toMatch(/api_key\.revoked\s+key cli-e2e-ci/);
    expect(audit.stdout).toMatch(/key bootstrap/);
    expect(audit.stderr).toMatch(/Older entries: switchboard audit --cursor \S+/);
    expect((await cli(["audit", "--action", "api key"])).code).toBe(1);
  });

  test("members invite makes a link that joins; role and remove change what the member may do", async ({
    browser,
  }) => {
    const invited = await cli(["members", "invite", "--role", "approver"]);
    expect(invited.code, invited.stderr).toBe(0);
    const link = invited.stdout.trim();
    expect(link).toMatch(/\/invite\/[\w-]+$/);
    expect((await cli(["members", "invite", "--role", "owner"])).code).toBe(2);

    // A second link, listed while pending, is revoked before anyone uses it.
    const spare = await cli(["members", "invite", "--role", "admin", "--json"]);
    const spareId = (JSON.parse(spare.stdout) as { id: string }).id;
    expect((await cli(["members", "invitations"])).stdout).toMatch(new RegExp(`${spareId}\\s+admin`));
    expect((await cli(["members", "uninvite", spareId])).code).toBe(2); // no terminal, no --yes
    const uninvited = await cli(["members", "uninvite", spareId, "--yes"]);
    expect(uninvited.code, uninvited.stderr).toBe(0);
    expect((await cli(["members", "invitations"])).stdout).not.toContain(spareId);
    expect((await cli(["members", "uninvite", spareId, "--yes"])).stderr).toContain("no pending invitation");

    const person = { name: "Cleo CLI", email: `cleo-${Date.now()}@example.com`, password: "cleo password 1" };
    const context = await signedOutContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(new URL(link).pathname);
      await page.getByRole("textbox", { name: "Your name" }).fill(person.name);
      await page.getByRole("textbox", { name: "Email" }).fill(person.email);
      await page.getByLabel("Password").fill(person.password);
      await page.getByRole("button", { name: "Create account and join" }).click();
      await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

      expect((await cli(["members", "list"])).stdout).toMatch(new RegExp(`${person.email}\\s+approver`));
      // An approver may decide (there is no such approval: 404, not 403).
      const decideAsApprover = await page.request.post("/api/v1/approvals/none/approve", { data: {} });
      expect(decideAsApprover.status()).toBe(404);
      const demoted = await cli(["members", "role", person.email, "viewer"]);
      expect(demoted.code, demoted.stderr).toBe(0);
      expect(demoted.stdout).toContain(`${person.email} is now viewer.`);
      // A viewer's session may read but no longer decide approvals.
      const decide = await page.request.post("/api/v1/approvals/none/approve", { data: {} });
      expect(decide.status()).toBe(403);
      expect((await decide.json()).error.message).toMatch(/approver or admin role/);

      expect((await cli(["members", "role", "nobody@example.com", "viewer"])).stderr).toContain(
        'There is no member "nobody@example.com"',
      );
      const removed = await cli(["members", "remove", person.email, "--yes"]);
      expect(removed.code, removed.stderr).toBe(0);
      expect((await cli(["members", "list"])).stdout).not.toContain(person.email);
      const after = await page.request.get("/api/v1/servers");
      expect(after.status()).toBe(403);
    } finally {
      await context.close();
    }
  });
});

/** Registers a copy of the local-tools demo server and waits until its tools are discovered. */
async function addDemoServer(name: string): Promise<void> {
  const add = await cli(["servers", "add", name, "--", "node", "--import", "tsx", localTools]);
  expect(add.code, add.stderr).toBe(0);
  await expect
    .poll(async () => (await cli(["servers", "tools", name])).stdout, { timeout: 30_000 })
    .toContain(`${name}__word_count`);
}

function writeConfig(name: string, content: unknown): string {
  const file = path.join(configHome, name);
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
