import { execFile } from "node:child_process";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { expect, test } from "@playwright/test";
import { type ClientWorld, SWITCHBOARD_TOOLS, startClientWorld } from "./fixtures/client-world";
import { installClient, pinnedClients } from "./fixtures/installed-clients";
import {
  cleanEnv,
  type ModelReply,
  type ModelRequest,
  type ModelStandIn,
  startModelStandIn,
} from "./fixtures/model-stand-in";

/*
 * Gemini CLI with the gateway in ~/.gemini/settings.json (`httpUrl`, an Authorization header that
 * takes the principal's key from SWITCHBOARD_API_KEY), a scratch HOME and project folder. Once the
 * folder is trusted, `gemini mcp list` shows the server Connected; a headless run (`gemini -p`)
 * against a scripted stand-in for the Gemini API (GOOGLE_GEMINI_BASE_URL) declares every granted
 * tool to the model as `mcp_switchboard_<gateway name>` — whole, not cut to fit Gemini's 64 — and
 * runs the dotted read tool.
 */

test.describe.configure({ mode: "serial" });

const execFileAsync = promisify(execFile);
const SERVER = "switchboard";
const FORECAST_PROMPT = "What is tomorrow's forecast for Lisbon?";

/** Gemini CLI's name for a tool of the gateway (when it needs no sanitising or shortening). */
const geminiName = (gatewayName: string) => `mcp_${SERVER}_${gatewayName}`;

let world: ClientWorld;
let geminiBin: string;
let model: ModelStandIn;
let projectDir: string;
let homeDir: string;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  [world, geminiBin, model] = await Promise.all([
    startClientWorld("gemini-cli"),
    installClient("gemini-cli"),
    startModelStandIn(answerAsTheModel),
  ]);
  projectDir = realpathSync(world.scratchDir("gemini-project"));
  homeDir = world.scratchDir("gemini-home");
  mkdirSync(path.join(homeDir, ".gemini"));
  writeFileSync(
    path.join(homeDir, ".gemini", "settings.json"),
    JSON.stringify(
      {
        // An API key, not a Google login; the key is a dummy the stand-in accepts.
        security: { auth: { selectedType: "gemini-api-key" } },
        // No traffic but the stand-in's.
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        privacy: { usageStatisticsEnabled: false },
        mcpServers: {
          [SERVER]: {
            httpUrl: world.gatewayUrl,
            headers: { Authorization: `Bearer \${SWITCHBOARD_API_KEY}` },
            // Headless runs only offer the model tools that need no confirmation; Switchboard's
            // own approvals still hold the risky ones.
            trust: true,
          },
        },
      },
      null,
      2,
    ),
  );
});

test.afterAll(async () => {
  await Promise.all([world?.stop(), model?.close()]);
  for (const dir of [projectDir, homeDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One Gemini CLI run in the project folder; resolves with its exit code and output whatever the code. */
async function gemini(...args: string[]) {
  try {
    const { stdout, stderr } = await execFileAsync(geminiBin, args, {
      cwd: projectDir,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
      env: cleanEnv({
        HOME: homeDir,
        SWITCHBOARD_API_KEY: world.agentKey,
        GEMINI_API_KEY: "dummy",
        GOOGLE_GEMINI_BASE_URL: model.url,
        GEMINI_TELEMETRY_ENABLED: "false",
        GEMINI_CLI_NO_RELAUNCH: "true",
        NO_BROWSER: "true",
        NO_COLOR: "1",
      }),
    });
    return { code: 0, stdout: stripVTControlCharacters(stdout), stderr: stripVTControlCharacters(stderr) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: failed.code ?? -1,
      stdout: stripVTControlCharacters(failed.stdout ?? ""),
      stderr: stripVTControlCharacters(failed.stderr ?? ""),
    };
  }
}

type Part = { text?: string; functionCall?: unknown; functionResponse?: { name: string; response: unknown } };

/** The function declarations a request offers the model. */
function declaredNames(request: ModelRequest): string[] {
  const tools: { functionDeclarations?: { name: string }[] }[] = request.body?.tools ?? [];
  return tools.flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name);
}

function functionResponses(request: ModelRequest): NonNullable<Part["functionResponse"]>[] {
  const contents: { parts?: Part[] }[] = request.body?.contents ?? [];
  return contents
    .flatMap((c) => c.parts ?? [])
    .flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
}

/**
 * The model's script. Gemini CLI first asks a small model to rate the prompt (a JSON answer), then
 * streams the main turn: call the forecast tool once, then answer in words.
 */
function answerAsTheModel(request: ModelRequest): ModelReply {
  const candidate = (parts: Part[]) => ({
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  });
  if (request.url.includes(":countTokens")) return { json: { totalTokens: 1 } };
  if (!request.url.includes(":streamGenerateContent")) {
    // The router's classifier (and any other utility call) wants JSON text.
    return {
      json: candidate([{ text: JSON.stringify({ complexity_reasoning: "simple", complexity_score: 10 }) }]),
    };
  }
  const forecast = declaredNames(request).find((name) => /__get.forecast$/.test(name));
  const called = functionResponses(request).length > 0;
  const parts: Part[] =
    forecast && !called
      ? // Gemini CLI adds `wait_for_previous` to every tool's schema and passes it on to the server.
        [{ functionCall: { name: forecast, args: { city: "Lisbon", wait_for_previous: false } } }]
      : [{ text: "Sunny in Lisbon." }];
  return { events: [{ data: candidate(parts) }] };
}

test(`Gemini CLI ${pinnedClients["gemini-cli"].version} connects once the folder is trusted`, async () => {
  // An untrusted folder: every MCP server is disabled, the user's own ones included.
  const untrusted = await gemini("mcp", "list");
  expect(`${untrusted.stdout}\n${untrusted.stderr}`).toContain(
    `${SERVER}: ${world.gatewayUrl} (http) - Disabled`,
  );

  writeFileSync(
    path.join(homeDir, ".gemini", "trustedFolders.json"),
    JSON.stringify({ [projectDir]: "TRUST_FOLDER" }, null, 2),
  );
  const listed = await gemini("mcp", "list");
  expect(listed.code, listed.stderr).toBe(0);
  expect(`${listed.stdout}\n${listed.stderr}`).toContain(
    `✓ ${SERVER}: ${world.gatewayUrl} (http) - Connected`,
  );
});

test("a headless run declares every granted tool under its whole gateway name and calls the dotted read tool", async () => {
  const run = await gemini("-p", FORECAST_PROMPT, "--output-format", "json");
  const output = `${run.stdout}\n${run.stderr}`.slice(-4000);
  expect(run.code, output).toBe(0);

  const main = model.requests.find((r) => r.url.includes(":streamGenerateContent"));
  expect(main, `Gemini CLI never streamed a turn from the stand-in:\n${output}`).toBeDefined();
  const declared = declaredNames(main as ModelRequest).filter((name) => name.startsWith(`mcp_${SERVER}_`));
  const granted = [...Object.values(world.tools).map((t) => t.gatewayName), ...SWITCHBOARD_TOOLS];
  // Gemini CLI cuts a name over 63 characters to 30 + "..." + 30 (and then matches no policy by it).
  expect.soft(declared.filter((name) => name.includes("..."))).toEqual([]);
  expect.soft(declared.sort()).toEqual(granted.map(geminiName).sort());

  const responses = model.requests.flatMap(functionResponses);
  expect(responses.map((r) => r.name)).toEqual([
    expect.stringMatching(new RegExp(`^mcp_${SERVER}_weather-station__get.forecast$`)),
  ]);
  expect(JSON.stringify(responses[0]?.response)).toContain("Forecast for Lisbon: sunny");
  expect(run.stdout).toContain("Sunny in Lisbon.");
});
