import path from "node:path";
import { errorOf, expect, test } from "./fixtures";

/*
 * A workspace admin is not the machine's owner. What they register runs on the host, so only the
 * launches the instance policy opens to every workspace are theirs; code-running options are
 * refused even for an owner unless the owner allowed that exact launch.
 */

const root = process.cwd();

test("a workspace admin cannot register a launch that runs code of their choosing", async ({
  workspaceAdmin,
}) => {
  const attacks: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      "node -e",
      { command: "node", args: ["-e", "require('child_process').execSync('id')"] },
      /stdio\.launchSpecs/,
    ],
    ["npx -c", { command: "npx", args: ["-c", "sh -c id"] }, /stdio\.launchSpecs/],
    ["npx -y <package>", { command: "npx", args: ["-y", "attacker-package"] }, /stdio\.ownersOnly/],
    [
      "NODE_OPTIONS",
      {
        command: "node",
        args: ["--import", "tsx", path.join(root, "demo-servers/local-tools.ts")],
        env: { NODE_OPTIONS: "--import=data:text/javascript,process.exit(9)" },
      },
      /stdio\.env.*NODE_OPTIONS changes which code a program runs/,
    ],
    [
      "PATH",
      {
        command: "node",
        args: ["--import", "tsx", path.join(root, "demo-servers/local-tools.ts")],
        env: { PATH: "/tmp/attacker-bin" },
      },
      /stdio\.env/,
    ],
    [
      "LD_PRELOAD",
      {
        command: "node",
        args: ["--import", "tsx", path.join(root, "demo-servers/local-tools.ts")],
        env: { LD_PRELOAD: "/tmp/evil.so" },
      },
      /stdio\.env/,
    ],
    [
      "a working folder outside the allowed ones",
      {
        command: "node",
        args: ["--import", "tsx", path.join(root, "demo-servers/local-tools.ts")],
        cwd: "/tmp",
      },
      /stdio\.cwd/,
    ],
  ];
  for (const [label, config, rule] of attacks) {
    const response = await workspaceAdmin.post("/api/v1/servers", {
      data: { name: "attack", transport: "stdio", ...config },
    });
    expect(response.status(), label).toBe(403);
    const error = await errorOf(response);
    expect(error.code, label).toBe("policy_denied");
    expect(error.message, label).toMatch(rule);
    expect(Object.keys(error.fieldErrors ?? {}).length, `${label}: the field at fault`).toBe(1);
  }
  const servers = (await (await workspaceAdmin.get("/api/v1/servers")).json()) as {
    servers: Array<{ name: string }>;
  };
  expect(servers.servers.map((s) => s.name)).not.toContain("attack");
});

test("a workspace admin cannot reach the instance policy, nor mint an owner key", async ({
  workspaceAdmin,
}) => {
  for (const route of ["/api/v1/instance", "/api/v1/instance/policy", "/api/v1/instance/owners"]) {
    expect((await workspaceAdmin.get(route)).status(), route).toBe(403);
  }
  const put = await workspaceAdmin.put("/api/v1/instance/policy", { data: {} });
  expect(put.status()).toBe(403);
  const ownerKey = await workspaceAdmin.post("/api/v1/api-keys", {
    data: { name: "escalate", scopes: ["owner"] },
  });
  expect(ownerKey.status()).toBe(403);
  expect((await errorOf(ownerKey)).message).toMatch(
    /Only an instance owner can create a key with the owner scope/,
  );
});

test("an owner is refused code-running options too, unless an exact launch is allowed", async ({ owner }) => {
  for (const args of [
    ["-e", "1"],
    ["--import=data:text/javascript,1", "x.js"],
  ]) {
    const refused = await owner.post("/api/v1/servers", {
      data: { name: "owner-eval", transport: "stdio", command: "node", args },
    });
    expect(refused.status(), args.join(" ")).toBe(403);
  }
  const nested = await owner.post("/api/v1/servers", {
    data: { name: "owner-nested", transport: "stdio", command: "npx", args: ["-y", "node", "-e", "1"] },
  });
  expect((await errorOf(nested)).message).toMatch(/`node -e` runs code given on the command line/);
});

test("an owner imports a Claude Desktop configuration with `npx -y` servers, and they connect", async ({
  owner,
}) => {
  const shared = path.join(root, "demo-servers", "sandbox");
  const report = await owner.post("/api/v1/servers/import", {
    data: {
      format: "claude-desktop",
      config: {
        mcpServers: {
          everything: { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] },
          filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", shared] },
        },
      },
    },
  });
  expect(report.status(), await report.text()).toBe(200);
  const { report: body } = (await report.json()) as { report: { summary: Record<string, number> } };
  expect(body.summary).toMatchObject({ create: 2, error: 0 });
  for (const name of ["everything", "filesystem"]) {
    await expect
      .poll(
        async () =>
          ((await (await owner.get(`/api/v1/servers/${name}`)).json()) as { server: { status: string } })
            .server.status,
        {
          message: `${name} connects`,
          timeout: 90_000,
        },
      )
      .toBe("ready");
    const server = (
      (await (await owner.get(`/api/v1/servers/${name}`)).json()) as {
        server: { programPath: string; launchApprovedByOwner: boolean };
      }
    ).server;
    expect(server.programPath).toMatch(/^\/.*\/npx$/);
    expect(server.launchApprovedByOwner).toBe(true);
  }
  const tools = await owner.get("/api/v1/servers/filesystem/tools");
  expect(((await tools.json()) as { tools: unknown[] }).tools.length).toBeGreaterThan(5);
  for (const name of ["everything", "filesystem"]) await owner.delete(`/api/v1/servers/${name}`);
});
