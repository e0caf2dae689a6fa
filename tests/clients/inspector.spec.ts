import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { type ClientWorld, startClientWorld, stationTools } from "./fixtures/client-world";
import { installClient, pinnedClients } from "./fixtures/installed-clients";

/*
 * The MCP Inspector's CLI against /mcp with an agent's key: it lists the granted tools with
 * `--strict` (its schema portability check finds no error), calls a read tool, and a revoked key
 * gets Switchboard's own message, not a page of HTML.
 */

test.describe.configure({ mode: "serial" });

const execFileAsync = promisify(execFile);
let world: ClientWorld;
let inspectorBin: string;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  [world, inspectorBin] = await Promise.all([startClientWorld("inspector"), installClient("inspector")]);
});

test.afterAll(async () => {
  await world?.stop();
});

/** One Inspector CLI run; resolves with its exit code and output whatever the code. */
async function inspector(key: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await execFileAsync(
      inspectorBin,
      ["--cli", world.gatewayUrl, "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...args],
      { timeout: 90_000, env: { ...process.env, HOME: world.scratchDir("inspector-home") } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

test(`Inspector ${pinnedClients.inspector.version} lists the granted tools with --strict and calls one`, async () => {
  const listed = await inspector(world.agentKey, "--method", "tools/list", "--strict", "--format", "json");
  expect(listed.code, listed.stderr).toBe(0);
  type Listed = { name: string; title?: string; annotations?: { destructiveHint?: boolean } };
  const { tools } = (JSON.parse(listed.stdout) as { result: { tools: Listed[] } }).result;
  const station = tools.filter((t) => !t.name.startsWith("switchboard__"));
  expect(station.map((t) => t.name).sort()).toEqual(
    Object.values(stationTools)
      .map((own) => world.tools[own]?.gatewayName)
      .sort(),
  );
  // Claude Code's prefix plus the name stays within the 64 characters model APIs accept.
  for (const { name } of tools) expect(`mcp__switchboard__${name}`.length, name).toBeLessThanOrEqual(64);
  expect(tools.map((t) => t.name)).toEqual(
    expect.arrayContaining(["switchboard__get_call", "switchboard__wait_call"]),
  );
  // An unreviewed tool is advertised as MCP's default for a non-read-only tool: destructive.
  const record = tools.find((t) => t.name === world.tools[stationTools.record]?.gatewayName);
  expect(record?.annotations?.destructiveHint).toBe(true);

  const forecast = world.tools[stationTools.forecast]?.gatewayName as string;
  const called = await inspector(
    world.agentKey,
    "--method",
    "tools/call",
    "--tool-name",
    forecast,
    "--tool-arg",
    "city=Lisbon",
    "--format",
    "json",
  );
  expect(called.code, called.stderr).toBe(0);
  expect(called.stdout).toContain("Forecast for Lisbon: sunny");
});

test("a call held for approval answers the Inspector once an approver says yes", async () => {
  const record = world.tools[stationTools.record]?.gatewayName as string;
  const answer = inspector(
    world.agentKey,
    "--method",
    "tools/call",
    "--tool-name",
    record,
    "--tool-arg",
    "note=inspected",
    "--format",
    "json",
  );
  await world.approveWhenPending(record);
  const called = await answer;
  expect(called.code, called.stderr).toBe(0);
  expect(called.stdout).toContain("recorded inspected");
  expect(readFileSync(world.countFile, "utf8")).toBe("inspected\n");
});

test("a revoked key gets Switchboard's message, not HTML", async () => {
  const revoked = await world.switchboard.api("DELETE", `/api/v1/api-keys/${world.agentKeyId}`);
  expect(revoked.status).toBeLessThan(300);
  // Without a terminal the Inspector answers any 401 by asking for one (to run OAuth in a browser);
  // --stored-auth-only is its way for scripts, and then what it prints is the gateway's 401.
  const refused = await inspector(world.agentKey, "--method", "tools/list", "--stored-auth-only");
  expect(refused.code).not.toBe(0);
  const output = `${refused.stdout}\n${refused.stderr}`;
  expect(output).not.toMatch(/<html|<!DOCTYPE/i);
  expect(output).toContain("The API key has been revoked");
});
