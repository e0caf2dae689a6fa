import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect, test } from "@playwright/test";
import {
  type ClientWorld,
  STATION,
  SWITCHBOARD_TOOLS,
  startClientWorld,
  stationTools,
} from "./fixtures/client-world";
import { installClient, pinnedClients } from "./fixtures/installed-clients";

/*
 * Codex's app-server (`codex app-server`, JSON-RPC over stdio: what the Codex IDE extension and
 * desktop app talk to) with Switchboard in its config.toml as a streamable HTTP MCP server and the
 * agent's key in an environment variable (`bearer_token_env_var`). It lists the granted tools, and
 * a scripted stand-in for the OpenAI Responses API (a custom model provider, no account, no
 * network) drives one turn: the read tool runs without a prompt, `record_observation` needs Codex's
 * own approval (answered "accept", as a user would) and then Switchboard's (approved through REST),
 * runs exactly once, and both results reach the model.
 */

test.describe.configure({ mode: "serial" });

const SERVER = "switchboard";
/** A second entry on the same gateway with a key Switchboard never issued. */
const WRONG_KEY_SERVER = "wrong_key";
/** Codex offers MCP tools to the model in one namespace per server. */
const NAMESPACE = `mcp__${SERVER}`;

let world: ClientWorld;
let codex: AppServer;
let model: StandIn;
let threadId: string;
/** The `_meta` of Codex's approval prompt for record_observation (the turn's test keeps it). */
let approvalPrompt: Record<string, unknown> | undefined;

type McpTool = { name: string; title?: string; annotations?: Record<string, boolean> };
type ServerStatus = {
  name: string;
  runtimeStatus: string | null;
  tools: Record<string, McpTool>;
  toolsError: string | null;
};
type ThreadItem = {
  type: string;
  tool?: string;
  status?: string;
  result?: { content: { type: string; text?: string }[] } | null;
  error?: unknown;
};
type Notification = { method: string; params: Record<string, unknown> };
type ServerRequest = { id: number | string; method: string; params: Record<string, unknown> };

test.beforeAll(async () => {
  test.setTimeout(300_000);
  let codexBin: string;
  [world, codexBin, model] = await Promise.all([
    startClientWorld("codex"),
    installClient("codex"),
    startStandIn(),
  ]);
  const home = world.scratchDir("codex-home");
  writeFileSync(
    path.join(home, "config.toml"),
    [
      // The stand-in is the only model: a custom provider speaking the Responses API.
      `model = "stand-in"`,
      `model_provider = "stand-in"`,
      `[model_providers.stand-in]`,
      `name = "Scripted stand-in"`,
      `base_url = "${model.url}/v1"`,
      `wire_api = "responses"`,
      `env_key = "STAND_IN_API_KEY"`,
      "request_max_retries = 0",
      "stream_max_retries = 0",
      // No plugin or app sync: it would reach for github.com and chatgpt.com.
      "[features]",
      "plugins = false",
      "apps = false",
      "remote_plugin = false",
      `[mcp_servers.${SERVER}]`,
      `url = "${world.gatewayUrl}"`,
      `bearer_token_env_var = "SWITCHBOARD_KEY"`,
      `[mcp_servers.${WRONG_KEY_SERVER}]`,
      `url = "${world.gatewayUrl}"`,
      `bearer_token_env_var = "SWITCHBOARD_WRONG_KEY"`,
      "",
    ].join("\n"),
  );
  codex = startAppServer(codexBin, {
    ...process.env,
    CODEX_HOME: home,
    HOME: world.scratchDir("codex-user"),
    STAND_IN_API_KEY: "dummy",
    SWITCHBOARD_KEY: world.agentKey,
    SWITCHBOARD_WRONG_KEY: `sb_${randomBytes(16).toString("hex")}`,
  });
  await codex.request("initialize", {
    clientInfo: { name: "switchboard-client-suite", title: null, version: "1.0.0" },
    capabilities: { experimentalApi: false, requestAttestation: false },
  });
  codex.notify("initialized");
  const started = await codex.request<{ thread: { id: string } }>("thread/start", {
    cwd: world.scratchDir("codex-project"),
    ephemeral: true,
  });
  threadId = started.thread.id;
});

test.afterAll(async () => {
  codex?.stop();
  model?.server.close();
  await world?.stop();
});

async function serverStatus(name: string): Promise<ServerStatus> {
  const listed = await codex.request<{ data: ServerStatus[] }>("mcpServerStatus/list", {
    threadId,
    serverName: name,
    detail: "toolsAndAuthOnly",
  });
  const status = listed.data.find((s) => s.name === name);
  if (!status) throw new Error(`mcpServerStatus/list has no ${name}: ${JSON.stringify(listed)}`);
  return status;
}

test(`Codex ${pinnedClients.codex.version} app-server lists the granted tools with Switchboard's annotations`, async () => {
  const status = await serverStatus(SERVER);
  expect(status.toolsError).toBeNull();
  const gatewayNames = Object.values(stationTools).map((own) => world.tools[own]?.gatewayName as string);
  expect(Object.keys(status.tools).sort()).toEqual([...gatewayNames, ...SWITCHBOARD_TOOLS].sort());

  const forecast = status.tools[world.tools[stationTools.forecast]?.gatewayName as string];
  expect(forecast?.annotations?.readOnlyHint).toBe(true);
  const record = status.tools[world.tools[stationTools.record]?.gatewayName as string];
  expect(record?.annotations?.readOnlyHint).toBe(false);
});

test("the app-server calls a read tool itself, no model involved (mcpServer/tool/call)", async () => {
  const called = await codex.request<{ content: { type: string; text?: string }[]; isError?: boolean }>(
    "mcpServer/tool/call",
    {
      threadId,
      server: SERVER,
      tool: world.tools[stationTools.forecast]?.gatewayName,
      arguments: { city: "Porto" },
    },
  );
  expect(called.isError ?? false).toBe(false);
  expect(called.content).toEqual([{ type: "text", text: "Forecast for Porto: sunny, 21 °C" }]);
});

test("a key Switchboard never issued: Codex lists no tools for that entry and asks for authentication", async () => {
  const status = await serverStatus(WRONG_KEY_SERVER);
  expect(status.tools).toEqual({});
  expect(status.runtimeStatus).toBe("authenticationRequired");
  const failedStartup = () =>
    codex.notifications.find(
      (n) =>
        n.method === "mcpServer/startupStatus/updated" &&
        n.params.name === WRONG_KEY_SERVER &&
        n.params.status === "failed",
    );
  await expect.poll(failedStartup, { message: "a failed startup status for the wrong key" }).toBeTruthy();
  const failed = failedStartup();
  expect(`${failed?.params.error} ${status.toolsError}`).not.toMatch(/<html|<!DOCTYPE/i);
});

test("a turn calls the read tool, then record_observation once after both approvals, and the model gets both results", async () => {
  const forecast = world.tools[stationTools.forecast]?.gatewayName as string;
  const record = world.tools[stationTools.record]?.gatewayName as string;
  const asked: ServerRequest[] = [];
  codex.onRequest = (request) => {
    asked.push(request);
    // Codex's own prompt before a tool that is not read-only ("Allow the switchboard MCP server to
    // run tool …?"): the user accepts.
    if (request.method === "mcpServer/elicitation/request")
      return { action: "accept", content: {}, _meta: null };
    throw new Error(`unexpected request from Codex: ${request.method}`);
  };
  // Switchboard holds the call until someone approves it: the test does, through REST, as soon as
  // it waits. (Codex 0.171 shows nothing meanwhile: no item/mcpToolCall/progress reaches the thread
  // from Switchboard's "waiting for approval" notices, and past the gateway's wait bound, 50 s, the
  // turn goes on without the result.)
  const approved = world.approveWhenPending(record, 120_000).then(
    () => null,
    (error: Error) => error.message,
  );
  const completed = codex.next("turn/completed");
  await codex.request("turn/start", {
    threadId,
    input: [{ type: "text", text: "Record tomorrow's forecast for Lisbon.", text_elements: [] }],
  });
  const turn = (await completed).params.turn as { status: string; error: unknown };
  expect(turn.error).toBeNull();
  expect(turn.status).toBe("completed");
  expect(await approved, "Switchboard's approval of record_observation").toBeNull();

  // What the model was offered: every granted tool, as Codex names them for the model.
  expect(model.offered[0]?.sort()).toEqual(
    [
      ...Object.values(stationTools).map((own) => world.tools[own]?.gatewayName as string),
      ...SWITCHBOARD_TOOLS,
    ]
      .map(codexModelName)
      .sort(),
  );
  // What the model got back, in order: the forecast, then the recorded note.
  expect(model.outputs).toEqual([
    expect.stringContaining("Forecast for Lisbon: sunny"),
    expect.stringContaining("recorded Lisbon: sunny"),
  ]);
  expect(readFileSync(world.countFile, "utf8")).toBe("Lisbon: sunny\n");

  const calls = codex.notifications
    .filter((n) => n.method === "item/completed" && (n.params.item as ThreadItem).type === "mcpToolCall")
    .map((n) => n.params.item as ThreadItem);
  expect(calls.map((c) => [c.tool, c.status])).toEqual([
    [forecast, "completed"],
    [record, "completed"],
  ]);

  // Codex asked once, for record_observation only: the read tool's readOnlyHint spared the prompt.
  expect(asked.map((r) => r.method)).toEqual(["mcpServer/elicitation/request"]);
  const prompt = asked[0]?.params as { message: string; _meta: Record<string, unknown> };
  expect(prompt._meta.codex_approval_kind).toBe("mcp_tool_call");
  expect(prompt._meta.tool_name).toBe(record);
  approvalPrompt = prompt._meta;
});

test("after Switchboard restarts, the same thread calls the tool again", async () => {
  await world.switchboard.kill("SIGTERM");
  await world.switchboard.start();
  const called = await codex.request<{ content: { type: string; text?: string }[]; isError?: boolean }>(
    "mcpServer/tool/call",
    {
      threadId,
      server: SERVER,
      tool: world.tools[stationTools.forecast]?.gatewayName,
      arguments: { city: "Faro" },
    },
  );
  expect(called.content).toEqual([{ type: "text", text: "Forecast for Faro: sunny, 21 °C" }]);
});

// Last, so that the other tests run while the app fixes they check are pending (a failure in serial
// mode skips the rest).
test("Codex shows an unclassified tool as destructive and gateway names that fit its limits", async () => {
  const status = await serverStatus(SERVER);
  const record = world.tools[stationTools.record]?.gatewayName as string;
  expect
    .soft(
      status.tools[record]?.annotations?.destructiveHint,
      "tools/list: record_observation destructiveHint",
    )
    .toBe(true);
  const annotations = approvalPrompt?.tool_annotations as Record<string, boolean> | undefined;
  expect.soft(annotations?.destructiveHint, "Codex's approval prompt: destructiveHint").toBe(true);
  // Gateway names within the 46-character budget and [A-Za-z0-9_-]; a renamed tool keeps its own
  // name in its title.
  for (const own of Object.values(stationTools)) {
    const name = world.tools[own]?.gatewayName as string;
    expect.soft(name, `the gateway name of ${own}`).toMatch(/^[A-Za-z0-9_-]{1,46}$/);
    if (name !== `${STATION}__${own}`)
      expect.soft(status.tools[name]?.title ?? "", `the title of ${name}`).toContain(own);
  }
});

/** How Codex 0.171 names an MCP tool for the model (in the `mcp__<server>` namespace). */
function codexModelName(gatewayName: string): string {
  return gatewayName.replace(/[^A-Za-z0-9_]/g, "_");
}

// ---------------------------------------------------------------------------------------------
// The app-server over stdio: newline-delimited JSON-RPC (without the "jsonrpc" field on its side).

type AppServer = {
  request<T = unknown>(method: string, params: unknown): Promise<T>;
  notify(method: string, params?: unknown): void;
  notifications: Notification[];
  /** Resolves with the next notification of `method`. */
  next(method: string): Promise<Notification>;
  /** Answers Codex's requests to the client (approvals); a throw answers with an error. */
  onRequest: (request: ServerRequest) => unknown;
  stop(): void;
};

function startAppServer(bin: string, env: NodeJS.ProcessEnv): AppServer {
  const child: ChildProcessWithoutNullStreams = spawn(bin, ["app-server"], { env, stdio: "pipe" });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; method: string }>();
  const waiters: { method: string; resolve(n: Notification): void }[] = [];
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const server: AppServer = {
    notifications: [],
    onRequest: (request) => {
      throw new Error(`unexpected request from Codex: ${request.method}`);
    },
    request(method, params) {
      const id = nextId++;
      send({ jsonrpc: "2.0", id, method, params });
      return new Promise((resolve, reject) =>
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, method }),
      );
    },
    notify(method, params) {
      send({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
    },
    next(method) {
      return new Promise((resolve) => waiters.push({ method, resolve }));
    },
    stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
    },
  };
  createInterface({ input: child.stdout }).on("line", (line) => {
    let message: {
      id?: number | string;
      method?: string;
      params?: Record<string, unknown>;
      result?: unknown;
      error?: { message: string };
    };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message.method && message.id !== undefined) {
      const request = { id: message.id, method: message.method, params: message.params ?? {} };
      try {
        send({ jsonrpc: "2.0", id: message.id, result: server.onRequest(request) });
      } catch (error) {
        send({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: String(error) } });
      }
    } else if (message.method) {
      const notification = { method: message.method, params: message.params ?? {} };
      server.notifications.push(notification);
      const i = waiters.findIndex((w) => w.method === notification.method);
      if (i >= 0) waiters.splice(i, 1)[0]?.resolve(notification);
    } else if (typeof message.id === "number" && pending.has(message.id)) {
      const call = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) call?.reject(new Error(`${call.method}: ${message.error.message}`));
      else call?.resolve(message.result);
    }
  });
  child.on("exit", (code, signal) => {
    for (const call of pending.values())
      call.reject(new Error(`codex app-server exited (${code ?? signal}) during ${call.method}:\n${stderr}`));
    pending.clear();
  });
  return server;
}

// ---------------------------------------------------------------------------------------------
// The scripted stand-in for the OpenAI Responses API. Each POST /v1/responses gets the whole
// conversation; the script looks at what came back so far and streams its next step:
// 1. ask for the forecast; 2. once the forecast is in the function_call_output, ask to record it;
// 3. once that came back, a closing message. Anything else ends the turn with a message.

type StandIn = {
  server: Server;
  url: string;
  /** The tool names offered in the Switchboard namespace, per request. */
  offered: string[][];
  /** The text of each function_call_output the model received, in order of first sight. */
  outputs: string[];
};

type InputItem = {
  type: string;
  call_id?: string;
  output?: string | { type: string; text?: string }[];
};

async function startStandIn(): Promise<StandIn> {
  const standIn: StandIn = { server: createServer(), url: "", offered: [], outputs: [] };
  standIn.server.on("request", (req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/responses")) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not here"}}');
        return;
      }
      const request = JSON.parse(body) as {
        input: InputItem[];
        tools?: { type: string; name: string; tools?: { name: string; description?: string }[] }[];
      };
      const namespace =
        request.tools?.find((t) => t.type === "namespace" && t.name === NAMESPACE)?.tools ?? [];
      standIn.offered.push(namespace.map((t) => t.name));
      const outputOf = (callId: string) => {
        const item = request.input.find((i) => i.type === "function_call_output" && i.call_id === callId);
        if (!item) return undefined;
        const text =
          typeof item.output === "string"
            ? item.output
            : (item.output ?? []).map((p) => p.text ?? "").join("\n");
        if (!standIn.outputs.includes(text)) standIn.outputs.push(text);
        return text;
      };
      const toolNamed = (gatewayName: string) =>
        namespace.find((t) => t.name === codexModelName(gatewayName))?.name ?? "no-such-tool-offered";
      const forecastOut = outputOf("call_forecast");
      const recordOut = outputOf("call_record");
      let step: Record<string, unknown>;
      if (forecastOut === undefined)
        step = functionCall(
          "call_forecast",
          toolNamed(world.tools[stationTools.forecast]?.gatewayName ?? ""),
          {
            city: "Lisbon",
          },
        );
      else if (recordOut === undefined && forecastOut.includes("Forecast for Lisbon: sunny"))
        step = functionCall("call_record", toolNamed(world.tools[stationTools.record]?.gatewayName ?? ""), {
          note: "Lisbon: sunny",
        });
      else
        step = {
          type: "message",
          role: "assistant",
          id: `msg_${standIn.offered.length}`,
          content: [{ type: "output_text", text: "Done." }],
        };
      const id = `resp_${standIn.offered.length}`;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const event of [
        { type: "response.created", response: { id } },
        { type: "response.output_item.done", item: step },
        {
          type: "response.completed",
          response: { id, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } },
        },
      ])
        res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => standIn.server.listen(0, "127.0.0.1", resolve));
  standIn.url = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}`;
  return standIn;
}

function functionCall(callId: string, name: string, args: unknown) {
  return {
    type: "function_call",
    call_id: callId,
    namespace: NAMESPACE,
    name,
    arguments: JSON.stringify(args),
  };
}
