import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  CreateMessageRequestSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "@playwright/test";
import { type BalancedCluster, SERVED_BY_HEADER, startBalancedCluster } from "../fixtures/balancer";
import { allowFixtureServers, type Cluster, createAgent, type SwitchboardProcess } from "../fixtures/cluster";

/*
 * A stateful MCP session across replicas (issue #25, item 1). Three processes on one PostgreSQL
 * behind a real HAProxy doing round-robin with no affinity; once through it, once with the client's
 * own fetch sending each request to the next process in turn (spread made certain), so the session's
 * initialize, its GET stream, a call with progress, a sampling request relayed from the downstream
 * server and the client's answer to it, and a resource subscription each land on a replica other
 * than the one holding the session. Each must behave as on one process. Then the holder stops:
 * the session is gone everywhere, and a new one works.
 */

test.describe.configure({ mode: "serial" });

const SERVER = "conformance";
const root = process.cwd();
const FIXTURE = path.join(root, "tests", "fixtures", "mcp-servers", "conformance-fixture.ts");

let balanced: BalancedCluster;
let cluster: Cluster;
let agentKey: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  balanced = await startBalancedCluster({ processes: 3 });
  cluster = balanced.cluster;
  const [first] = cluster.processes as [SwitchboardProcess];
  await allowFixtureServers(first);
  const registered = await first.api("POST", "/api/v1/servers", {
    name: SERVER,
    transport: "stdio",
    command: "node",
    args: ["--import", "tsx", FIXTURE],
    cwd: root,
  });
  expect(registered.status, await registered.text()).toBe(201);
  // Its tools as reads: nothing waits for an approval here.
  const deadline = Date.now() + 60_000;
  let ids: string[] = [];
  while (ids.length < 13) {
    if (Date.now() > deadline) throw new Error(`the fixture's tools were not listed (${ids.length})`);
    const res = await first.api("GET", `/api/v1/tools?q=${SERVER}__`);
    const { tools } = (await res.json()) as { tools: Array<{ id: string; gatewayName: string }> };
    ids = tools.filter((tool) => tool.gatewayName.startsWith(`${SERVER}__`)).map((tool) => tool.id);
    if (ids.length < 13) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (const id of ids) {
    const classified = await first.api("PATCH", `/api/v1/tools/${id}`, { effect: "read" });
    expect(classified.status).toBe(200);
  }
  agentKey = await createAgent(first, "session-agent", [`${SERVER}__*`]);
});

test.afterAll(async () => {
  await balanced?.stop();
});

/** Where each request of the session landed (a process's name, or HAProxy's x-served-by). */
type Landing = { method: string; replica: string; sessionId: string | null };

/** The client's fetch sends each request to the next process in turn: spread made certain. */
function roundRobinFetch(processes: SwitchboardProcess[], landings: Landing[]): typeof fetch {
  let next = 0;
  return (input, init) => {
    const target = processes[next++ % processes.length] as SwitchboardProcess;
    const url = new URL(input instanceof Request ? input.url : String(input));
    landings.push({
      method: init?.method ?? "GET",
      replica: target.name,
      sessionId: new Headers(init?.headers).get("mcp-session-id"),
    });
    return fetch(new URL(url.pathname + url.search, target.url), init);
  };
}

/** Every request through HAProxy (round-robin, no affinity); which replica took it, from its answer. */
function balancedFetch(landings: Landing[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    landings.push({
      method: init?.method ?? "GET",
      replica: res.headers.get(SERVED_BY_HEADER) ?? "?",
      sessionId: new Headers(init?.headers).get("mcp-session-id"),
    });
    return res;
  };
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

/**
 * One session doing everything a session does — progress, sampling relayed both ways, a
 * subscription's update on its GET stream, a list — with its requests sent through `route`.
 */
async function useSession(base: string, route: typeof fetch, landings: Landing[]): Promise<void> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), {
    requestInit: { headers: { authorization: `Bearer ${agentKey}` } },
    fetch: route,
  });
  const client = new Client(
    { name: "cluster-session", version: "1.0.0" },
    { capabilities: { sampling: {} } },
  );
  const prompts: string[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]?.content;
    prompts.push(content && "text" in content ? String(content.text) : "");
    return { role: "assistant", content: { type: "text", text: "forty-two" }, model: "test-model" };
  });
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri);
  });
  await client.connect(transport);
  const sessionId = transport.sessionId;
  expect(sessionId).toBeTruthy();

  try {
    // Progress: the notices ride on the call's own response, streamed back through the hand-off.
    const progress: number[] = [];
    const withProgress = await client.callTool({ name: `${SERVER}__test_tool_with_progress` }, undefined, {
      onprogress: (notice) => progress.push(notice.progress),
    });
    expect(withProgress.isError).toBeFalsy();
    expect(progress).toEqual([0, 50, 100]);

    // Sampling: the downstream server's request reaches this client mid-call, and the client's
    // answer (a POST of its own, landing on yet another replica) reaches the call waiting for it.
    for (const question of ["meaning of life?", "and of everything?", "and the rest?"]) {
      const sampled = (await client.callTool({
        name: `${SERVER}__test_sampling`,
        arguments: { prompt: question },
      })) as CallToolResult;
      expect(textOf(sampled)).toBe("LLM response: forty-two");
    }
    expect(prompts).toEqual(["meaning of life?", "and of everything?", "and the rest?"]);

    // A subscription: the update comes on the session's GET stream, wherever that was opened.
    await client.subscribeResource({ uri: "test://watched-resource" });
    await expect.poll(() => updates, { timeout: 15_000 }).toContain("test://watched-resource");

    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain(`${SERVER}__test_sampling`);
    // Ended by the client (DELETE), wherever that lands: its watch ends with it on the holder.
    await transport.terminateSession();
  } finally {
    await client.close();
  }

  // The session's requests really were spread: every process received some of them.
  const mine = landings.filter((l) => l.sessionId === sessionId);
  const replicas = new Set(mine.map((l) => l.replica));
  console.log(
    `${mine.length} requests of one session over ${replicas.size} replicas: ${mine
      .map((l) => `${l.method}→${l.replica}`)
      .join(" ")}`,
  );
  expect([...replicas].sort()).toEqual(cluster.processes.map((p) => p.name).sort());
}

test("a session works through HAProxy's round-robin, its requests landing on every replica", async () => {
  const landings: Landing[] = [];
  await useSession(balanced.balancer.url, balancedFetch(landings), landings);
});

test("a session works with each of its requests sent to the next replica", async () => {
  const landings: Landing[] = [];
  await useSession(
    cluster.processes[0]?.url as string,
    roundRobinFetch(cluster.processes, landings),
    landings,
  );
});

test("a forged hand-off is refused, and a session whose replica stopped is gone everywhere", async () => {
  const [a, b, c] = cluster.processes as [SwitchboardProcess, SwitchboardProcess, SwitchboardProcess];
  const headers = (sessionId?: string) => ({
    authorization: `Bearer ${agentKey}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(sessionId ? { "mcp-session-id": sessionId } : {}),
  });
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "by-hand", version: "1" },
    },
  };
  const open = async (proc: SwitchboardProcess) => {
    const res = await fetch(`${proc.url}/mcp`, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify(initialize),
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    return res.headers.get("mcp-session-id") as string;
  };
  const opened = await fetch(`${a.url}/mcp`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify(initialize),
  });
  expect(opened.status).toBe(200);
  const sessionId = opened.headers.get("mcp-session-id") as string;
  await opened.body?.cancel();

  // A client cannot pose as a replica: the hand-off header is signed with the shared secret key.
  const forged = await fetch(`${b.url}/mcp`, {
    method: "GET",
    headers: {
      ...headers(sessionId),
      accept: "text/event-stream",
      "x-switchboard-hand-off": `${Buffer.from(JSON.stringify({ connection: "", session: sessionId })).toString("base64url")}.AAAA`,
    },
  });
  expect(forged.status).toBe(403);

  // Through B, the session's DELETE reaches A and ends it there.
  const ended = await fetch(`${b.url}/mcp`, { method: "DELETE", headers: headers(sessionId) });
  expect(ended.status).toBe(200);
  const afterDelete = await fetch(`${c.url}/mcp`, {
    method: "GET",
    headers: { ...headers(sessionId), accept: "text/event-stream" },
  });
  expect(afterDelete.status).toBe(404);

  // A session of A, then A stops: B and C answer its GET with 404, so the client starts again.
  const second = await fetch(`${a.url}/mcp`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify(initialize),
  });
  const secondId = second.headers.get("mcp-session-id") as string;
  await second.body?.cancel();
  await a.kill("SIGTERM");
  for (const proc of [b, c]) {
    const gone = await fetch(`${proc.url}/mcp`, {
      method: "GET",
      headers: { ...headers(secondId), accept: "text/event-stream" },
    });
    expect(gone.status).toBe(404);
  }
  const fresh = await fetch(`${b.url}/mcp`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify(initialize),
  });
  expect(fresh.status).toBe(200);
  await fresh.body?.cancel();
  await a.start();

  // A crash leaves its sessions recorded, but the next request finds the holder gone (the
  // connection is refused) at once, without waiting for its heartbeat to go stale.
  const third = await open(a);
  await a.kill("SIGKILL");
  const startedAt = Date.now();
  const afterCrash = await fetch(`${b.url}/mcp`, {
    method: "GET",
    headers: { ...headers(third), accept: "text/event-stream" },
  });
  expect(afterCrash.status).toBe(404);
  console.log(`a session of a crashed replica answered 404 after ${Date.now() - startedAt} ms`);
  expect(b.log()).toContain(`gateway session ${third}: its replica`);
  await a.start();
});
