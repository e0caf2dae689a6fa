import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect, test } from "@playwright/test";
import { type ClientWorld, SWITCHBOARD_TOOLS, startClientWorld, stationTools } from "./fixtures/client-world";
import { installClient, pinnedClients } from "./fixtures/installed-clients";

/*
 * Claude Desktop's way in: the exported `npx -y mcp-remote@… <url> --header …` entry, run exactly as
 * exported (only the key placeholder filled in) and driven over stdio by the SDK's Client, as Claude
 * Desktop drives it. It lists the granted tools, calls a read tool, keeps working across a
 * Switchboard restart, and a revoked key gets Switchboard's own message, not a page of HTML.
 *
 * The launcher stays `npx`: it runs in the folder the suite installed the pinned mcp-remote into,
 * with npm offline, so npx resolves the package from that folder (no download, no network) and an
 * export naming another version fails instead of fetching it.
 *
 * Seen with 0.15.1: across a restart mcp-remote logs "Error from remote server: SSE stream
 * disconnected: TypeError: terminated" and carries on (the next request works). A 401 sends it into
 * OAuth (discovery, then Dynamic Client Registration at /register); what that answers is what the
 * person sees, in the "Fatal error" line of Claude Desktop's log for the server.
 */

// Not serial: a test that fails (the pending app fixes) must not skip the others.
test.describe.configure({ mode: "default" });

const MCP_REMOTE = pinnedClients["mcp-remote"];

type DesktopEntry = { command: string; args: string[]; env: Record<string, string> };
type DesktopExport = {
  config: { mcpServers: Record<string, DesktopEntry> };
  serverName: string;
  apiKeyVariable: string;
  instructions: string[];
};

let world: ClientWorld;
/** The folder the pinned mcp-remote is installed in (its node_modules holds mcp-remote). */
let pinnedDir: string;
let exported: DesktopExport;
let entry: DesktopEntry;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  let bin: string;
  [world, bin] = await Promise.all([startClientWorld("mcp-remote"), installClient("mcp-remote")]);
  // <dir>/node_modules/.bin/mcp-remote
  pinnedDir = path.dirname(path.dirname(path.dirname(bin)));
  exported = await world.exportFor<DesktopExport>("claude-desktop");
  entry = exported.config.mcpServers[exported.serverName] as DesktopEntry;
});

test.afterAll(async () => {
  await world?.stop();
});

/**
 * A fresh mcp-remote from the exported entry, as Claude Desktop starts it: its command, args and env
 * untouched but for the key the person pastes over the placeholder; a scratch HOME (mcp-remote keeps
 * OAuth state in ~/.mcp-auth).
 */
function bridge(key: string) {
  const placeholder = `<${exported.apiKeyVariable}>`;
  const env = Object.fromEntries(
    Object.entries(entry.env).map(([name, value]) => [name, value.replaceAll(placeholder, key)]),
  );
  const home = mkdtempSync(path.join(tmpdir(), "switchboard-mcp-remote-home-"));
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    cwd: pinnedDir,
    stderr: "pipe",
    env: { ...env, HOME: home, npm_config_offline: "true", npm_config_update_notifier: "false" },
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "claude-desktop-stand-in", version: "1.0.0" });
  return { transport, client, stderr: () => stderr };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const textOf = (result: Record<string, unknown>) =>
  ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? "").join("\n");

/** Connects a fresh mcp-remote as Claude Desktop would, runs `use`, and closes it. */
async function withBridge(key: string, use: (session: ReturnType<typeof bridge>) => Promise<void>) {
  const session = bridge(key);
  try {
    await session.client.connect(session.transport).catch((error: Error) => {
      throw new Error(`${error.message}\nmcp-remote said:\n${session.stderr()}`);
    });
    await use(session);
  } finally {
    await session.transport.close();
  }
}

const forecastName = () => world.tools[stationTools.forecast]?.gatewayName as string;

async function forecast(session: ReturnType<typeof bridge>, city: string) {
  const result = await session.client.callTool({ name: forecastName(), arguments: { city } });
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return textOf(result);
}

test(`mcp-remote ${MCP_REMOTE.version} from the exported entry lists the granted tools and calls a read tool`, async () => {
  await withBridge(world.agentKey, async (session) => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        ...Object.values(stationTools).map((own) => world.tools[own]?.gatewayName),
        ...SWITCHBOARD_TOOLS,
      ].sort(),
    );
    expect(await forecast(session, "Lisbon")).toContain("Forecast for Lisbon: sunny");
    // What ran is the pinned mcp-remote: it tells the server so in the client's name.
    expect(session.stderr()).toContain(`via mcp-remote ${MCP_REMOTE.version}`);
  });
});

test("the same mcp-remote lists and calls again after Switchboard restarts", async () => {
  await withBridge(world.agentKey, async (session) => {
    expect(await forecast(session, "Lisbon")).toContain("Forecast for Lisbon: sunny");
    await world.switchboard.kill("SIGTERM");
    await world.switchboard.start();
    const { tools } = await session.client.listTools().catch((error: Error) => {
      throw new Error(`${error.message}\nmcp-remote said:\n${session.stderr()}`);
    });
    expect(tools.map((t) => t.name)).toContain(forecastName());
    expect(await forecast(session, "Porto")).toContain("Forecast for Porto: sunny");
  });
});

test(`the Claude Desktop export pins mcp-remote@${MCP_REMOTE.version} and takes the key in its env`, async () => {
  expect(entry.command).toBe("npx");
  expect(entry.args).toContain(`${MCP_REMOTE.package}@${MCP_REMOTE.version}`);
  expect(entry.args).toContain(world.gatewayUrl);
  // The key goes in the one place the instructions name, never in args.
  const placeholder = `<${exported.apiKeyVariable}>`;
  expect(Object.values(entry.env).filter((value) => value.includes(placeholder))).toHaveLength(1);
  expect(entry.args.join(" ")).not.toContain(placeholder);
  expect(exported.instructions.join("\n")).toContain(placeholder);
});

test("an unclassified tool reaches Claude Desktop advertised as destructive", async () => {
  await withBridge(world.agentKey, async (session) => {
    const { tools } = await session.client.listTools();
    const record = tools.find((t) => t.name === world.tools[stationTools.record]?.gatewayName);
    expect(record?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });
});

test("a call held for approval comes back through mcp-remote once an approver says yes, and runs once", async () => {
  const record = world.tools[stationTools.record]?.gatewayName as string;
  await withBridge(world.agentKey, async (session) => {
    const answer = session.client.callTool({ name: record, arguments: { note: "via Claude Desktop" } });
    // While the bridge waits on the held call, a person approves it in Switchboard.
    await world.approveWhenPending(record);
    const result = await answer;
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(textOf(result)).toContain("recorded via Claude Desktop");
  });
  expect(readFileSync(world.countFile, "utf8")).toBe("via Claude Desktop\n");
});

test("a revoked key shows Switchboard's message through mcp-remote, not HTML", async () => {
  const revoked = await world.switchboard.api("DELETE", `/api/v1/api-keys/${world.agentKeyId}`);
  expect(revoked.status).toBeLessThan(300);
  const refused = bridge(world.agentKey);
  // Claude Desktop shows the failed start and keeps mcp-remote's stderr in its log.
  const stderrEnded = new Promise((resolve) => refused.transport.stderr?.once("end", resolve));
  try {
    const error = await refused.client.connect(refused.transport, { timeout: 60_000 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error, "the client connected with a revoked key").toBeDefined();
    // mcp-remote gives up and exits: its stderr is complete once it ends.
    await Promise.race([stderrEnded, sleep(10_000)]);
    const output = `${error?.message}\n${refused.stderr()}`;
    const html = output.match(/.{0,160}<(!DOCTYPE|html).{0,160}/is)?.[0];
    expect.soft(html, "mcp-remote showed a page of HTML").toBeUndefined();
    const message = output.match(/.{0,200}API key.{0,200}/i)?.[0];
    const shown = output.replace(/<!DOCTYPE[\s\S]*?<\/html>/gi, "<!DOCTYPE html>…</html>").slice(0, 3000);
    expect(message, `no "API key" in what mcp-remote printed:\n${shown}`).toBeDefined();
  } finally {
    await refused.transport.close();
  }
});
