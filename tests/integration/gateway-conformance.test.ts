import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { toErrorBody } from "@/lib/errors";
import { checkRequest } from "@/lib/http/request-guard";
import { handleGatewayRequest } from "@/lib/mcp/gateway";
import { gatewaySessions } from "@/lib/mcp/gateway-sessions";
import {
  CONFORMANCE_SERVER,
  type ConformanceWorld,
  openConformanceWorld,
} from "../fixtures/mcp-servers/conformance-world";
import { repoRoot } from "../fixtures/mcp-servers/pool-harness";

/*
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server mode, active
 * suite) against /mcp/servers/conformance over a real HTTP listener, with the conformance fixture
 * server behind the gateway: every check must pass through Switchboard's governed path.
 *
 * The listener does what Next.js does around the route: proxy.ts's Host/Origin check
 * (checkRequest — the suite's DNS-rebinding scenario tests that code), then handleGatewayRequest.
 * The suite sends no credentials, so the listener adds the principal's key to requests without one.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

const CLI = path.join(repoRoot, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

type Check = { id: string; name: string; status: string; errorMessage?: string };

function listen(key: string): Promise<Server> {
  const server = createServer((req, res) => {
    serve(req, res, key).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function serve(req: IncomingMessage, res: ServerResponse, key: string): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  }
  const url = `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`;
  const refusal = checkRequest({ headers, url });
  if (refusal) {
    res.writeHead(refusal.status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: toErrorBody(refusal) }));
    return;
  }
  if (!headers.has("authorization")) headers.set("authorization", `Bearer ${key}`);
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const response = await handleGatewayRequest(
    new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      signal: gone.signal,
      // @ts-expect-error Node's fetch needs `duplex` for a streamed body; the DOM types lack it.
      duplex: "half",
    }),
    { scope: { server: CONFORMANCE_SERVER } },
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    res.write(value);
  }
  res.end();
}

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
  let listener: Server;
  let outputDir: string;

  beforeAll(async () => {
    world = await openConformanceWorld();
    listener = await listen(world.agent.key);
    outputDir = mkdtempSync(path.join(tmpdir(), "switchboard-conformance-"));
  });
  afterAll(async () => {
    await gatewaySessions.closeAll();
    await new Promise((resolve) => listener?.close(resolve));
    listener?.closeAllConnections();
    await world?.close();
    if (outputDir) rmSync(outputDir, { recursive: true, force: true });
    vi.unstubAllEnvs();
  });

  it("passes every check of the active suite", { timeout: 240_000 }, async () => {
    const { port } = listener.address() as AddressInfo;
    const { code, output } = await runSuite(
      `http://127.0.0.1:${port}/mcp/servers/${CONFORMANCE_SERVER}`,
      outputDir,
    );
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
