import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gatewaySessions } from "@/lib/gateway/sessions/sessions";
import { type GatewayListener, listenGateway } from "../../fixtures/gateway-listener";
import {
  CONFORMANCE_SERVER,
  type ConformanceWorld,
  openConformanceWorld,
} from "../../fixtures/mcp-servers/conformance-world";
import { repoRoot } from "../../fixtures/mcp-servers/pool-harness";

/*
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server mode, active
 * suite) against /mcp/servers/conformance over a real HTTP listener, with the conformance fixture
 * server behind the gateway: every check must pass through Switchboard's governed path.
 *
 * The listener is the Switchboard server's own front door (serveGatewayNodeRequest, as server.mjs
 * serves it): the Host/Origin check (the suite's DNS-rebinding scenario tests that code), plain tool
 * calls answered directly, everything else by the full handler. The suite sends no credentials, so
 * the listener adds the principal's key to requests without one.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

const CLI = path.join(repoRoot, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

type Check = { id: string; name: string; status: string; errorMessage?: string };

function runSuite(url: string, outputDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CLI, "server", "--url", url, "--suite", "active", "-o", outputDir],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Every check the suite saved, by scenario (one checks.json per scenario folder). */
function readChecks(dir: string): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (path.basename(entry) !== "checks.json") continue;
    found.set(path.dirname(entry), JSON.parse(readFileSync(path.join(dir, entry), "utf8")) as Check[]);
  }
  return found;
}

describe("the official MCP conformance suite through the gateway (/mcp/servers/conformance)", () => {
  let world: ConformanceWorld;
  let listener: GatewayListener;
  let outputDir: string;

  beforeAll(async () => {
    world = await openConformanceWorld();
    listener = await listenGateway({ defaultKey: world.agent.key });
    outputDir = mkdtempSync(path.join(tmpdir(), "switchboard-conformance-"));
  });
  afterAll(async () => {
    await gatewaySessions.closeAll();
    await listener?.close();
    await world?.close();
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
    vi.unstubAllEnvs();
  });

  it("passes every check of the active suite", { timeout: 240_000 }, async () => {
    const { code, output } = await runSuite(`${listener.base}/mcp/servers/${CONFORMANCE_SERVER}`, outputDir);
    const checks = readChecks(outputDir);
    const failures = [...checks].flatMap(([scenario, list]) =>
      list
        .filter((check) => check.status === "FAILURE")
        .map((check) => `${scenario}: ${check.name} — ${check.errorMessage ?? "failed"}`),
    );
    expect(failures, failures.join("\n")).toEqual([]);
    // 30 scenarios in the active suite of 0.1.13; a run that saved fewer did not run them all.
    expect(checks.size, output.slice(-4000)).toBe(30);
    expect(code, output.slice(-4000)).toBe(0);
  });
});
