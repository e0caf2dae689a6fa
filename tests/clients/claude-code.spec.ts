import { execFile } from "node:child_process";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { type ClientWorld, SWITCHBOARD_TOOLS, startClientWorld, stationTools } from "./fixtures/client-world";
import { installClient, pinnedClients } from "./fixtures/installed-clients";
import {
  cleanEnv,
  type ModelReply,
  type ModelRequest,
  type ModelStandIn,
  startModelStandIn,
} from "./fixtures/model-stand-in";

/*
 * Claude Code with the exported configuration: `.mcp.json` and the exported permission rules in a
 * project folder, the principal's key in SWITCHBOARD_API_KEY, a scratch HOME. Once the project's
 * server is approved and the folder trusted, `claude mcp list` and `claude mcp get` report it
 * Connected; a print-mode session (`claude -p`, no permission-skipping flag) against a scripted
 * stand-in for the Anthropic Messages API sends the model every granted tool under a name the API
 * accepts (≤ 64), runs the dotted read tool because the exported allow rule matches Claude Code's
 * name for it, and may look a call up with switchboard__get_call. A revoked key shows Switchboard's
 * own message.
 */

test.describe.configure({ mode: "serial" });

const execFileAsync = promisify(execFile);
const SERVER = "switchboard";
const MAX_TOOL_NAME = 64;
const FORECAST_USE = "toolu_forecast";
const GET_CALL_USE = "toolu_get_call";

/** Claude Code's name for a tool of the gateway: characters outside [A-Za-z0-9_-] become `_`. */
const claudeName = (gatewayName: string) => `mcp__${SERVER}__${gatewayName}`.replace(/[^A-Za-z0-9_-]/g, "_");

let world: ClientWorld;
let claudeBin: string;
let model: ModelStandIn;
let projectDir: string;
let homeDir: string;
let permissions: { allow: string[]; ask: string[] };
/** a call of the forecast tool the agent made itself, for switchboard__get_call to look up */
let agentCallId: string;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  [world, claudeBin, model] = await Promise.all([
    startClientWorld("claude-code"),
    installClient("claude-code"),
    startModelStandIn(answerAsTheModel),
  ]);
  projectDir = realpathSync(world.scratchDir("claude-project"));
  homeDir = world.scratchDir("claude-home");

  const exported = await world.exportFor<{
    config: Record<string, unknown>;
    permissions: { allow: string[]; ask: string[] };
  }>("claude-code");
  permissions = exported.permissions;
  writeFileSync(path.join(projectDir, ".mcp.json"), JSON.stringify(exported.config, null, 2));
  mkdirSync(path.join(projectDir, ".claude"));
  writeFileSync(
    path.join(projectDir, ".claude", "settings.json"),
    JSON.stringify({ permissions: exported.permissions }, null, 2),
  );
});

test.afterAll(async () => {
  await Promise.all([world?.stop(), model?.close()]);
  for (const dir of [projectDir, homeDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function adminGet<T>(route: string): Promise<T> {
  const res = await world.switchboard.api("GET", route);
  if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** One Claude Code run in the project folder; resolves with its exit code and output whatever the code. */
const claude = (...args: string[]) => claudeWithKey(world.agentKey, ...args);

async function claudeWithKey(key: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await execFileAsync(claudeBin, args, {
      cwd: projectDir,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
      env: cleanEnv({
        HOME: homeDir,
        SWITCHBOARD_API_KEY: key,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: "dummy",
        // No traffic but the stand-in's: no telemetry, update checks or error reports.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        // Every tool in the first request (otherwise MCP tools wait behind ToolSearch).
        ENABLE_TOOL_SEARCH: "false",
      }),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/**
 * The model's script: call the forecast tool (under the name Claude Code gives it), then look the
 * agent's own earlier call up with switchboard__get_call, then finish.
 */
function answerAsTheModel(request: ModelRequest): ModelReply {
  const body = request.body ?? {};
  const tools: string[] = (body.tools ?? []).map((t: { name: string }) => t.name);
  const answered = toolResults(request).map((r) => r.tool_use_id);
  const forecast = claudeName(world.tools[stationTools.forecast]?.gatewayName ?? "");
  const getCall = claudeName("switchboard__get_call");
  let block: Record<string, unknown> = { type: "text", text: "Done." };
  if (!answered.includes(FORECAST_USE) && tools.includes(forecast))
    block = { type: "tool_use", id: FORECAST_USE, name: forecast, input: { city: "Lisbon" } };
  else if (!answered.includes(GET_CALL_USE) && tools.includes(getCall))
    block = { type: "tool_use", id: GET_CALL_USE, name: getCall, input: { callId: agentCallId } };
  const message = {
    id: `msg_${model?.requests.length ?? 0}`,
    type: "message",
    role: "assistant",
    model: body.model ?? "claude-stand-in",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
  const stopReason = block.type === "tool_use" ? "tool_use" : "end_turn";
  if (!body.stream) return { json: { ...message, content: [block], stop_reason: stopReason } };
  const { input, ...opened } = block;
  const delta =
    block.type === "tool_use"
      ? { type: "input_json_delta", partial_json: JSON.stringify(input) }
      : { type: "text_delta", text: block.text };
  const events = [
    { type: "message_start", message: { ...message, content: [], stop_reason: null } },
    {
      type: "content_block_start",
      index: 0,
      content_block: block.type === "tool_use" ? { ...opened, input: {} } : { type: "text", text: "" },
    },
    { type: "content_block_delta", index: 0, delta },
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 1 },
    },
    { type: "message_stop" },
  ];
  return { events: events.map((data) => ({ event: data.type, data })) };
}

type ToolResult = { tool_use_id: string; content: unknown; is_error?: boolean };

/** The tool results a request carries back to the model. */
function toolResults(request: ModelRequest): ToolResult[] {
  const messages: { content?: unknown }[] = request.body?.messages ?? [];
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as (ToolResult & { type: string })[]).filter((c) => c.type === "tool_result")
      : [],
  );
}

const resultText = (result: ToolResult | undefined) =>
  result === undefined ? "(no tool result)" : JSON.stringify(result.content);

test(`Claude Code ${pinnedClients["claude-code"].version} connects once the project's server is approved and the folder trusted`, async () => {
  // Straight after the export: Claude Code holds a project's .mcp.json server back until approved.
  const pending = await claude("mcp", "list");
  expect(pending.stdout, pending.stderr).toContain(
    `${SERVER}: ${world.gatewayUrl} (HTTP) - ⏸ Pending approval`,
  );

  // The two steps a person does at the first interactive start, written as files.
  writeFileSync(
    path.join(projectDir, ".claude", "settings.local.json"),
    JSON.stringify({ enabledMcpjsonServers: [SERVER] }, null, 2),
  );
  writeFileSync(
    path.join(homeDir, ".claude.json"),
    JSON.stringify({ projects: { [projectDir]: { hasTrustDialogAccepted: true } } }, null, 2),
  );

  const listed = await claude("mcp", "list");
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain(`${SERVER}: ${world.gatewayUrl} (HTTP) - ✔ Connected`);
  const shown = await claude("mcp", "get", SERVER);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toMatch(/Scope: Project config/);
  expect(shown.stdout).toContain("Status: ✔ Connected");
});

test("a revoked key: Claude Code shows Switchboard's message, not HTML", async () => {
  const created = await world.switchboard.api("POST", `/api/v1/principals/${world.agentId}/keys`, {
    name: "revoked",
  });
  expect(created.status).toBe(201);
  const { key, apiKey } = (await created.json()) as { key: string; apiKey: { id: string } };
  const revoked = await world.switchboard.api("DELETE", `/api/v1/api-keys/${apiKey.id}`);
  expect(revoked.status).toBeLessThan(300);
  const shown = await claudeWithKey(key, "mcp", "get", SERVER);
  const output = `${shown.stdout}\n${shown.stderr}`;
  expect(output).toContain("Status: ✘ Failed to connect");
  expect(output).not.toMatch(/<html|<!DOCTYPE/i);
  expect(output).toContain("The API key has been revoked.");
});

test("a print-mode session sends every granted tool within 64 characters and runs the dotted read tool under the exported rules", async () => {
  agentCallId = await callForecastAsTheAgent();
  const run = await claude(
    "-p",
    "What is tomorrow's forecast for Lisbon?",
    "--output-format",
    "stream-json",
    "--verbose",
  );
  const output = `${run.stdout}\n${run.stderr}`.slice(-4000);
  expect(run.code, output).toBe(0);

  const first = model.requests.find((r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0);
  expect(first, `Claude Code sent the stand-in no tools:\n${output}`).toBeDefined();
  const sent: string[] = ((first?.body.tools ?? []) as { name: string }[])
    .map((t) => t.name)
    .filter((name) => name.startsWith(`mcp__${SERVER}__`));
  const granted = [...Object.values(world.tools).map((t) => t.gatewayName), ...SWITCHBOARD_TOOLS];
  expect(sent.sort()).toEqual(granted.map(claudeName).sort());
  // The Messages API refuses a request with any tool name over 64: one such tool fails the session.
  expect.soft(sent.filter((name) => name.length > MAX_TOOL_NAME)).toEqual([]);
  // Every exported rule names a tool as Claude Code calls it (else the rule is inert).
  expect.soft([...permissions.allow, ...permissions.ask].filter((rule) => !sent.includes(rule))).toEqual([]);
  expect
    .soft(permissions.allow)
    .toEqual(
      expect.arrayContaining([claudeName("switchboard__get_call"), claudeName("switchboard__wait_call")]),
    );

  const results = model.requests.flatMap(toolResults);
  // The allow rule lets Claude Code run the read tool without a prompt, in non-interactive mode.
  const forecast = results.find((r) => r.tool_use_id === FORECAST_USE);
  expect.soft(resultText(forecast)).toContain("Forecast for Lisbon: sunny");
  // And the meta tool the docs tell agents to use, for a call of the agent's own.
  const lookedUp = results.find((r) => r.tool_use_id === GET_CALL_USE);
  expect.soft(resultText(lookedUp)).toContain(agentCallId);
  expect.soft(resultText(lookedUp)).toContain("succeeded");
});

/** The agent calls the forecast tool itself (over MCP, with its key); resolves with the call's id. */
async function callForecastAsTheAgent(): Promise<string> {
  const gatewayName = world.tools[stationTools.forecast]?.gatewayName as string;
  const client = new Client({ name: "client-suite", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(world.gatewayUrl), {
      requestInit: { headers: { Authorization: `Bearer ${world.agentKey}` } },
    }),
  );
  try {
    const result = await client.callTool({ name: gatewayName, arguments: { city: "Porto" } });
    expect(JSON.stringify(result.content)).toContain("Forecast for Porto");
  } finally {
    await client.close();
  }
  const { calls } = await adminGet<{ calls: { id: string }[] }>(
    `/api/v1/calls?tool=${encodeURIComponent(gatewayName)}&limit=1`,
  );
  const id = calls[0]?.id;
  if (!id) throw new Error(`no call of ${gatewayName} is listed`);
  return id;
}
