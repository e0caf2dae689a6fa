import { changeInstancePolicy, errorOf, expect, joinAs, test } from "./fixtures";

/*
 * The attack: a viewer of workspace A created workspace B (any member could), became its admin,
 * opened B's egress policy and registered `node -e <payload>`, which read the secret key and the
 * database and decrypted A's secrets. Each step that let it through is now closed on its own.
 */

const payload =
  "process.stderr.write(require('fs').readFileSync(process.argv[1] ?? '/etc/hostname', 'utf8'))";

test("a viewer cannot create a workspace: by default only instance owners may", async ({
  browser,
  owner,
}) => {
  const viewer = await joinAs(browser, owner, {
    name: "Val Viewer",
    email: "val@example.com",
    role: "viewer",
  });
  const created = await viewer.request.post("/api/v1/workspaces", { data: { name: "Workspace B" } });
  expect(created.status()).toBe(403);
  expect((await errorOf(created)).message).toMatch(/Only an instance owner can create a workspace/);
  const mine = await viewer.request.get("/api/v1/workspaces");
  expect(
    ((await mine.json()) as { workspaces: Array<{ name: string }> }).workspaces.map((w) => w.name),
  ).toEqual(["Default workspace"]);
  await viewer.close();
});

test("where an owner lets members create workspaces, B's admin still cannot widen the instance policy", async ({
  browser,
  owner,
  baseURL,
}) => {
  const restore = await changeInstancePolicy(owner, (policy) => {
    policy.workspaceCreation = "members";
  });
  try {
    const member = await joinAs(browser, owner, {
      name: "Mo Member",
      email: "mo@example.com",
      role: "viewer",
    });
    const created = await member.request.post("/api/v1/workspaces", { data: { name: "Workspace B" } });
    expect(created.status(), await created.text()).toBe(201);
    const { workspace } = (await created.json()) as { workspace: { id: string; role: string } };
    expect(workspace.role).toBe("admin");
    // The dashboard works in the workspace its cookie names.
    await member.addCookies([{ name: "switchboard_workspace", value: workspace.id, url: baseURL as string }]);

    // B's admin opens B's egress policy as wide as it goes…
    const wide = await member.request.put("/api/v1/policy/egress", {
      data: {
        stdio: { allowedCommands: ["node", "npx", "bash", "sh", "/bin/sh"] },
        http: {
          allowedSchemes: ["http", "https"],
          allowHosts: ["*"],
          allowLoopback: true,
          allowPrivate: true,
        },
      },
    });
    expect(wide.status(), await wide.text()).toBe(200);

    // …and still cannot make the host run code of their choosing.
    for (const [label, config] of [
      ["node -e", { command: "node", args: ["-e", payload, "secret.key"] }],
      ["npx -y <any package>", { command: "npx", args: ["-y", "attacker-package"] }],
      ["sh -c", { command: "sh", args: ["-c", "cat .data/security/secret.key >&2"] }],
    ] as const) {
      const refused = await member.request.post("/api/v1/servers", {
        data: { name: `b-${label.replace(/\W+/g, "-").replace(/-$/, "")}`, transport: "stdio", ...config },
      });
      expect(refused.status(), label).toBe(403);
      const error = await errorOf(refused);
      expect(error.code, label).toBe("policy_denied");
      expect(error.message, label).toMatch(/^Refused by the instance policy \(stdio\.\w+\)/);
      expect(error.message, label).toMatch(/instance owner/);
    }
    const servers = await member.request.get("/api/v1/servers");
    expect(((await servers.json()) as { servers: unknown[] }).servers).toEqual([]);
    await member.close();
  } finally {
    await restore();
  }
});
