// What bench:scale's parts set up: Switchboard processes (the test suite's launcher: `node server.mjs`
// on a free port, PGlite in its own folder or a DATABASE_URL), the one-process MCP host, servers
// registered through the REST API, an agent, an admin's browser session, and timed HTTP requests.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createAgent, launchSwitchboard, type SwitchboardProcess } from "../../tests/fixtures/cluster";
import { freePort, waitFor } from "../bench-common";

export const root = process.cwd();
export const now = () => performance.timeOrigin + performance.now();
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const METRICS_TOKEN = `bench-metrics-${randomBytes(12).toString("hex")}`;

/** Progress for the person watching (stderr): the figures themselves go to stdout. */
export function progress(text: string): void {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

export type Switchboard = {
  proc: SwitchboardProcess;
  apiKey: string;
  /** spawn → /api/v1/health/ready answering "ready", in ms */
  readyMs: number;
  stop(): Promise<void>;
};

/** `node server.mjs` ready to serve; its log and (PGlite) data folder are removed by stop(). */
export async function startSwitchboard(options: {
  name: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** processes sharing a database share their bootstrap key */
  apiKey?: string;
}): Promise<Switchboard> {
  const apiKey = options.apiKey ?? `sb_bench-${randomBytes(16).toString("hex")}`;
  const started = now();
  const proc = await launchSwitchboard({
    name: options.name,
    apiKey,
    waitReady: false,
    env: {
      SWITCHBOARD_BOOTSTRAP_API_KEY: apiKey,
      SWITCHBOARD_SEED_DEMO: "false",
      SWITCHBOARD_METRICS: "on",
      SWITCHBOARD_METRICS_TOKEN: METRICS_TOKEN,
      NEXT_TELEMETRY_DISABLED: "1",
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
  });
  const readyMs = await untilReady(proc, started).catch(async (error: unknown) => {
    await proc.stop();
    throw error;
  });
  return {
    proc,
    apiKey,
    readyMs,
    async stop() {
      await proc.stop();
      rmSync(path.dirname(proc.logFile), { recursive: true, force: true });
    },
  };
}

/** Polls the readiness route every 20 ms (the launcher's own wait polls every 250 ms). */
export async function untilReady(proc: SwitchboardProcess, since: number): Promise<number> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ready = await fetch(`${proc.url}/api/v1/health/ready`)
      .then(async (r) => r.ok && ((await r.json()) as { status?: string }).status === "ready")
      .catch(() => false);
    if (ready) return now() - since;
    if (Date.now() > deadline) {
      throw new Error(`${proc.name} was not ready within 180 s:\n${proc.log().slice(-3000)}`);
    }
    await sleep(20);
  }
}

/** A REST call as the bootstrap admin key; anything but 2xx is an error naming the answer. */
export async function rest<T = Record<string, unknown>>(
  proc: SwitchboardProcess,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> {
  const response = await proc.api(method, route, body);
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? {} : await response.json()) as T;
}

export type Timed = { ms: number; bytes: number; status: number; text: string };

/**
 * One request, timed to the last byte of its body. The body is decoded after the clock stops:
 * undici's text() of a 6 MiB answer takes ~35 ms of the bench's own CPU on these machines, which
 * is the reader's cost, not the server's.
 */
export async function timedFetch(url: string, init: RequestInit = {}): Promise<Timed> {
  const started = now();
  const response = await fetch(url, init);
  const body = Buffer.from(await response.arrayBuffer());
  const ms = now() - started;
  return { ms, bytes: body.byteLength, status: response.status, text: body.toString("utf8") };
}

/** `count` requests one after another: the first (cold) and the median of the rest (warm). */
export async function coldAndWarm(
  count: number,
  request: () => Promise<Timed>,
  check: (answer: Timed) => boolean,
): Promise<{ cold: Timed; warmMs: number; warmCount: number; mismatches: number }> {
  const answers: Timed[] = [];
  for (let i = 0; i < count; i++) answers.push(await request());
  const cold = answers[0] as Timed;
  const warm = answers.slice(1).map((a) => a.ms);
  return {
    cold,
    warmMs: median(warm.length ? warm : [cold.ms]),
    warmCount: warm.length,
    mismatches: answers.filter((a) => !check(a)).length,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/** Runs `work` over `items`, at most `concurrency` at once. */
export async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

// ─── the downstream MCP host ───────────────────────────────────────────────────────────────────

export type McpHost = {
  url: string;
  child: ChildProcess;
  /** Changes one tool's description of server `index`: its next listing differs. */
  bump(index: number): Promise<void>;
  /** When an echo of `text` (marked "stamp-") reached the host, epoch ms; undefined if it did not. */
  receivedAt(text: string): Promise<number | undefined>;
  stop(): Promise<void>;
};

export async function startMcpHost(): Promise<McpHost> {
  const port = await freePort();
  const child = spawn("node", ["--import", "tsx", path.join(root, "scripts", "bench-scale", "mcp-host.ts")], {
    cwd: root,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => ((await fetch(`${url}/received`)).status > 0 ? true : undefined), "the MCP host");
  return {
    url,
    child,
    async bump(index) {
      await fetch(`${url}/s/${index}/bump`, { method: "POST" });
    },
    async receivedAt(text) {
      const answer = await fetch(`${url}/received?text=${encodeURIComponent(text)}`);
      return ((await answer.json()) as { at: number | null }).at ?? undefined;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

export const serverName = (index: number) => `bench-${String(index).padStart(4, "0")}`;

/** Registers servers [from, to) of the host, each with `tools` tools, through POST /api/v1/servers. */
export async function registerHostServers(
  proc: SwitchboardProcess,
  host: McpHost,
  range: { from: number; to: number; tools: number },
): Promise<string[]> {
  const indexes = Array.from({ length: range.to - range.from }, (_, i) => range.from + i);
  return inParallel(indexes, 8, async (index) => {
    const name = serverName(index);
    await rest(proc, "POST", "/api/v1/servers", {
      name,
      transport: "streamable-http",
      url: `${host.url}/s/${index}/${range.tools}/mcp`,
    });
    return name;
  });
}

type ToolRow = { id: string; name: string; gatewayName: string };

/**
 * Waits until each server's catalog holds `tools` tools (discovery runs after the connection, in
 * the background) and returns each server's `echo` tool id.
 */
export async function waitForCatalogs(
  proc: SwitchboardProcess,
  names: readonly string[],
  tools: number,
  timeoutMs: number,
): Promise<Map<string, string>> {
  const echoIds = new Map<string, string>();
  const deadline = Date.now() + timeoutMs;
  let pending = [...names];
  while (pending.length > 0) {
    const done = await inParallel(pending, 8, async (name) => {
      const answer = await proc.api("GET", `/api/v1/servers/${name}/tools`);
      if (!answer.ok) return false;
      const list = ((await answer.json()) as { tools: ToolRow[] }).tools;
      const echo = list.find((t) => t.name === "echo");
      if (list.length !== tools || !echo) return false;
      echoIds.set(name, echo.id);
      return true;
    });
    pending = pending.filter((_, i) => !done[i]);
    if (pending.length === 0) break;
    if (Date.now() > deadline) {
      throw new Error(
        `${pending.length} servers had no full catalog after ${timeoutMs / 1000} s (${pending[0]}…)`,
      );
    }
    await sleep(500);
  }
  return echoIds;
}

/** Classifies tools as reads (no approval needed), 200 per request (the bulk route's limit). */
export async function classify(
  proc: SwitchboardProcess,
  ids: readonly string[],
  change: Record<string, unknown>,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 200) {
    const changes = ids.slice(i, i + 200).map((id) => ({ id, ...change }));
    await rest(proc, "PATCH", "/api/v1/tools", { changes });
  }
}

/** An agent granted every tool (`*`): its gateway key. */
export const agentForAll = (proc: SwitchboardProcess, name = "bench-agent") => createAgent(proc, name, ["*"]);

/**
 * An admin's browser session: the first-run setup (the setup page's server action, called as the
 * page's form calls it; from loopback no setup token is needed) → the session cookie it sets.
 */
export async function adminSession(proc: SwitchboardProcess): Promise<string> {
  const manifest = JSON.parse(
    readFileSync(path.join(root, ".next", "server", "server-reference-manifest.json"), "utf8"),
  ) as { node: Record<string, { filename: string; exportedName: string }> };
  const actionId = Object.entries(manifest.node).find(
    ([, action]) =>
      action.filename === "app/(auth)/actions.ts" && action.exportedName === "completeSetupAction",
  )?.[0];
  if (!actionId) throw new Error("completeSetupAction is not in the build's server-reference manifest");
  const response = await fetch(`${proc.url}/setup`, {
    method: "POST",
    headers: {
      "Next-Action": actionId,
      "Content-Type": "text/plain;charset=UTF-8",
      Accept: "text/x-component",
      Origin: proc.url,
    },
    body: JSON.stringify([
      { name: "Bench Admin", email: "bench@example.com", password: "bench-password-123" },
    ]),
  });
  const body = await response.text();
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!response.ok || !cookie) {
    throw new Error(`setup did not sign in (${response.status}): ${body.slice(0, 300)}`);
  }
  return cookie;
}

/** The sum of a metric's samples (all label sets) in the process's GET /metrics. */
export async function metricSum(proc: SwitchboardProcess, name: string): Promise<number> {
  const text = await (
    await fetch(`${proc.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) total += Number(line.split(" ").at(-1));
  }
  return total;
}

/** The number of statements the process has run (every operation), from GET /metrics. */
export const statementCount = (proc: SwitchboardProcess) =>
  metricSum(proc, "switchboard_db_query_duration_seconds_count");

// ─── the gateway ───────────────────────────────────────────────────────────────────────────────

/** One stateless JSON-RPC request on /mcp with an agent's key (no session: what a plain agent sends). */
export function mcpRequest(proc: SwitchboardProcess, key: string, method: string, params?: unknown) {
  return timedFetch(`${proc.url}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, ...(params === undefined ? {} : { params }) }),
  });
}

/** The JSON-RPC result of an answer, whether it came as JSON or as one SSE message. */
export function rpcResult<T>(answer: Timed): T | undefined {
  const text = answer.text.startsWith("{")
    ? answer.text
    : answer.text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6);
  try {
    return (JSON.parse(text ?? "") as { result?: T }).result;
  } catch {
    return undefined;
  }
}

/**
 * A gateway `tools/call` of an echo tool: its time, whether the answer was this request's text,
 * and if not, what came instead (status and the start of the body).
 */
export async function echoCall(
  proc: SwitchboardProcess,
  key: string,
  tool: string,
  text: string,
): Promise<{ ms: number; ok: boolean; instead?: string }> {
  const answer = await mcpRequest(proc, key, "tools/call", { name: tool, arguments: { text } });
  const result = rpcResult<{ content?: { text?: string }[]; isError?: boolean }>(answer);
  const ok = !result?.isError && result?.content?.[0]?.text === text;
  const said = result?.content?.[0]?.text ?? answer.text;
  return { ms: answer.ms, ok, ...(ok ? {} : { instead: `${answer.status} ${said.slice(0, 400)}` }) };
}
