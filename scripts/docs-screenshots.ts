// The README's "First five minutes", walked in a real browser against the built server, taking the
// screenshots in docs/images/. Run after a build: `npx tsx scripts/docs-screenshots.ts [port]`.
// It starts its own server on a fresh data folder (.data/docs-screenshots) and stops it after, and it
// throws at the first step that does not work as the README says — so it doubles as a check of it.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect as baseExpect, chromium, type Page } from "@playwright/test";

const port = Number(process.argv[2] ?? 3216);
const base = `http://127.0.0.1:${port}`;
const dataDir = ".data/docs-screenshots";
const out = "docs/images";
// This machine may be busy (a shared CI box): generous waits, never a timing assertion.
const expect = baseExpect.configure({ timeout: 30_000 });
const admin = { name: "Ada Lovelace", email: "ada@example.com", password: "correct horse battery" };

async function startServer(): Promise<ChildProcess> {
  rmSync(dataDir, { recursive: true, force: true });
  const server = spawn(process.execPath, ["server.mjs"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SWITCHBOARD_DATA_DIR: dataDir },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 240; i++) {
    const ready = await fetch(`${base}/api/v1/health/ready`).catch(() => null);
    if (ready?.ok) return server;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.kill("SIGTERM");
  throw new Error("the server did not become ready within 2 minutes");
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${out}/${name}.png` });
  console.log(`wrote ${out}/${name}.png`);
}

async function main() {
  mkdirSync(out, { recursive: true });
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage({ baseURL: base, viewport: { width: 1280, height: 760 } });
    const hydrated = () => page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    // 2. Create the admin: the first visit asks for it.
    await page.goto("/");
    await expect(page).toHaveURL(/\/setup$/);
    await hydrated();
    await page.getByRole("textbox", { name: "Your name" }).fill(admin.name);
    await page.getByRole("textbox", { name: "Email" }).fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Create admin account" }).click();
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    // The demo servers connect in the background: wait for both, as a newcomer would see them.
    await expect
      .poll(
        async () => {
          const body = (await (await page.request.get("/api/v1/servers")).json()) as {
            servers: { name: string; status: string }[];
          };
          return body.servers.map((server) => `${server.name}:${server.status}`).sort();
        },
        { timeout: 90_000 },
      )
      .toEqual(["files:ready", "local-tools:ready"]);
    await page.goto("/servers");
    await hydrated();
    await shoot(page, "servers");

    // 3. An agent, its grant and its key.
    await page.goto("/principals");
    await hydrated();
    await page.getByRole("textbox", { name: "Name" }).fill("claude-code");
    await page.getByRole("button", { name: "Create principal" }).click();
    await expect(page).toHaveURL(/\/principals\/[^/?]+/);
    await hydrated();
    await page.getByRole("combobox", { name: "Grant pattern" }).fill("local-tools__*");
    await page.getByRole("button", { name: "Add grant" }).click();
    await expect(page.getByText("local-tools__*").first()).toBeVisible();
    await page.getByRole("textbox", { name: "Key name" }).fill("laptop");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await page.getByRole("textbox", { name: "New gateway key" }).inputValue();
    if (!key.startsWith("sb_")) throw new Error("no key shown after Create key");

    // Alone on an install, you made the agent's key: "No self-approval" (on in new workspaces) would
    // refuse your approval of its calls. The README says to turn it off here, so this does too.
    await page.goto("/settings/approvals");
    await hydrated();
    await page.getByRole("checkbox", { name: /No self-approval/ }).uncheck();
    await page.getByRole("button", { name: "Save rules" }).click();
    await expect
      .poll(async () => {
        const body = (await (await page.request.get("/api/v1/policy/approvals")).json()) as {
          policy: { forbidSelfApproval: boolean };
        };
        return body.policy.forbidSelfApproval;
      })
      .toBe(false);

    // 4–5. The MCP client Claude Code would be, on /mcp with that key: a call that waits.
    const client = new Client({ name: "docs-screenshots", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    const listed = await client.listTools();
    if (!listed.tools.some((tool) => tool.name === "local-tools__write_note"))
      throw new Error("local-tools__write_note is not offered on /mcp");
    // The Approvals page open and live first, as an operator keeps it: the call appears by itself.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/approvals");
    await hydrated();
    await expect(page.getByTestId("connection-state")).toHaveText("Live", { timeout: 30_000 });
    const waiting = client.callTool(
      { name: "local-tools__write_note", arguments: { title: "hello", text: "Hi from Claude Code" } },
      undefined,
      { timeout: 120_000 },
    );
    const item = page.getByText("local-tools__write_note").first();
    await expect(item).toBeVisible({ timeout: 30_000 });
    await item.click();
    await expect(page.getByTestId("approval-detail")).toContainText("Hi from Claude Code");
    await shoot(page, "approvals");

    await page.getByTestId("approval-detail").getByRole("button", { name: "Approve", exact: true }).click();
    await expect(page.getByTestId("decision-notice")).toContainText("Approved local-tools__write_note");
    let result = await waiting;
    // Past the gateway's 50 s wait (a slow machine) the answer names the call: collect it as a client would.
    const callId = /"callId\\?": \\?"([0-9a-f-]{36})/.exec(JSON.stringify(result.content))?.[1];
    if (callId)
      result = await client.callTool({
        name: "switchboard__wait_call",
        arguments: { callId, timeoutSeconds: 60 },
      });
    const text = JSON.stringify(result.content);
    if (result.isError || !text.includes("Saved")) throw new Error(`the approved call answered ${text}`);
    await client.close();

    await page.setViewportSize({ width: 1280, height: 760 });
    await page.goto("/calls");
    await hydrated();
    await page.getByRole("link", { name: "local-tools__write_note" }).first().click();
    await expect(page.getByTestId("call-status")).toHaveText("Succeeded");
    await shoot(page, "call");
  } finally {
    await browser.close();
    server.kill("SIGTERM");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
