// bench:scale, catalog part: one Switchboard with SERVERS × TOOLS tools of streamable-HTTP servers
// (one host process), then the lists, the pages, the gateway's tools/list, a refresh of one
// server, and health checks of every server while echo calls go through /mcp.
import { processTreeCpuMs, residentMiB, stats } from "../bench-common";
import { mib, ms, Section, s, size } from "./report";
import {
  adminSession,
  agentForAll,
  classify,
  coldAndWarm,
  echoCall,
  inParallel,
  type McpHost,
  mcpRequest,
  now,
  progress,
  registerHostServers,
  rpcResult,
  type Switchboard,
  serverName,
  startMcpHost,
  startSwitchboard,
  statementCount,
  type Timed,
  timedFetch,
  untilReady,
  waitForCatalogs,
} from "./world";

export type CatalogOptions = {
  databaseUrl: string | undefined;
  databaseName: string;
  servers: number;
  tools: number;
  /** servers health-checked in the second round (the first: `servers`) */
  healthServers: number;
  /** tools of each server added for that round */
  healthTools: number;
  healthConcurrency: number;
  echoCalls: number;
};

const WARM = 5;

export async function catalogPart(options: CatalogOptions): Promise<Section[]> {
  const { servers, tools } = options;
  const section = new Section(
    `Catalog: ${servers} HTTP servers × ${tools} tools (${servers * tools} tools), ${options.databaseName}`,
  );
  const health = new Section(`Health checks (${options.databaseName})`);
  let host: McpHost | undefined;
  let sb: Switchboard | undefined;
  try {
    host = await startMcpHost();
    sb = await startSwitchboard({ name: "catalog", databaseUrl: options.databaseUrl });
    const { proc } = sb;
    const cookie = await adminSession(proc);

    progress(`catalog: registering ${servers} servers of ${tools} tools`);
    let started = now();
    const names = await registerHostServers(proc, host, { from: 0, to: servers, tools });
    const registeredMs = now() - started;
    const echoIds = await waitForCatalogs(proc, names, tools, 60_000 + servers * 1_000);
    section.row(
      `register ${servers} servers (REST, 8 at once) · until every catalog is stored`,
      `${s(registeredMs)} · ${s(now() - started)}`,
    );
    await classify(proc, [...echoIds.values()], { effect: "read" });
    const key = await agentForAll(proc);
    const total = servers * tools;

    // ── REST lists ──
    progress("catalog: lists, pages, tools/list");
    type ToolsAnswer = { tools?: { gatewayName: string }[]; nextCursor?: string | null };
    const parse = <T>(answer: Timed) => {
      try {
        return JSON.parse(answer.text) as T;
      } catch {
        return undefined;
      }
    };
    const api = (route: string) => () =>
      timedFetch(`${proc.url}${route}`, { headers: { Authorization: `Bearer ${sb?.apiKey}` } });

    const serversList = await coldAndWarm(1 + WARM, api("/api/v1/servers"), (a) => {
      return parse<{ servers?: unknown[] }>(a)?.servers?.length === servers;
    });
    section.mismatches += serversList.mismatches;
    reportTimed(section, "GET /api/v1/servers", serversList, 300);

    const allTools = await coldAndWarm(1 + WARM, api("/api/v1/tools"), (a) => {
      const body = parse<ToolsAnswer>(a);
      const count = body?.tools?.length ?? -1;
      // Paged (a nextCursor): a first page; whole: every tool.
      return body?.nextCursor ? count > 0 && count <= total : count === total;
    });
    section.mismatches += allTools.mismatches;
    reportTimed(section, "GET /api/v1/tools", allTools, 300);

    let limitHonoured = false;
    const firstPage = await coldAndWarm(1 + WARM, api("/api/v1/tools?limit=100"), (a) => {
      const count = parse<ToolsAnswer>(a)?.tools?.length ?? -1;
      limitHonoured = count === 100;
      return count === 100 || count === total;
    });
    section.mismatches += firstPage.mismatches;
    reportTimed(section, "GET /api/v1/tools?limit=100 (the first view)", firstPage, 300);
    section.note(
      limitHonoured
        ? "`?limit=100` answered a page of 100 tools."
        : `\`?limit=100\` is not honoured by this build: it answered all ${total} tools.`,
    );

    const search = await coldAndWarm(1 + WARM, api("/api/v1/tools?q=echo"), (a) => {
      const body = parse<ToolsAnswer & { total?: number }>(a);
      const list = body?.tools ?? [];
      // Paged: every tool of the page an echo, and as many matches in all as there are servers.
      const echoes = list.length > 0 && list.every((t) => t.gatewayName.endsWith("__echo"));
      return echoes && (body?.nextCursor ? body.total === servers : list.length === servers);
    });
    section.mismatches += search.mismatches;
    reportTimed(section, "GET /api/v1/tools?q=echo", search, 300);

    // ── pages, rendered on the server for a signed-in admin ──
    for (const [page, expect] of [
      ["/servers", serverName(servers - 1)],
      // The first page of tools, in gateway-name order (before paging, every tool).
      ["/tools", `${serverName(0)}__echo`],
    ] as const) {
      const rendered = await coldAndWarm(
        1 + WARM,
        () => timedFetch(`${proc.url}${page}`, { headers: { Cookie: cookie } }),
        (a) => a.status === 200 && a.text.includes(expect),
      );
      section.mismatches += rendered.mismatches;
      reportTimed(section, `page ${page} (server render, HTML to the last byte)`, rendered, 300);
    }

    // ── the gateway's tools/list for an agent granted `*` ──
    // The classification above dropped the process's catalog cache: the first list reads it again.
    const listed = (a: Timed) =>
      (rpcResult<{ tools: { name: string }[] }>(a)?.tools ?? []).filter((t) => t.name.startsWith("bench-"))
        .length === total;
    const toolsList = await coldAndWarm(1 + 2 * WARM, () => mcpRequest(proc, key, "tools/list"), listed);
    section.mismatches += toolsList.mismatches;
    reportTimed(section, "/mcp tools/list, agent granted `*`", toolsList, 50);

    // ── one tool: read, and changed by an admin (what the Tools page's effect menu sends) ──
    const echoId = echoIds.get(serverName(0));
    const oneTool = await coldAndWarm(
      4,
      api(`/api/v1/tools/${echoId}`),
      (a) => parse<{ tool?: { id: string } }>(a)?.tool?.id === echoId,
    );
    section.mismatches += oneTool.mismatches;
    section.row(
      "GET /api/v1/tools/{id} (one tool): first · median of the next 3",
      `${ms(oneTool.cold.ms)} · ${ms(oneTool.warmMs)}`,
    );
    const patched = await coldAndWarm(
      4,
      () =>
        timedFetch(`${proc.url}/api/v1/tools/${echoId}`, {
          method: "PATCH",
          headers: { Authorization: `Bearer ${sb?.apiKey}`, "Content-Type": "application/json" },
          body: JSON.stringify({ effect: "read" }),
        }),
      (a) => parse<{ tool?: { id: string; effect: string } }>(a)?.tool?.effect === "read",
    );
    section.mismatches += patched.mismatches;
    section.row(
      "PATCH /api/v1/tools/{id} (one tool's effect): first · median of the next 3",
      `${ms(patched.cold.ms)} · ${ms(patched.warmMs)}`,
    );

    // ── a catalog refresh of one server ──
    progress("catalog: refresh of one server");
    const target = serverName(Math.floor(servers / 2));
    const refresh = async (expectChanged: boolean) => {
      const before = await statementCount(proc);
      const answer = await timedFetch(`${proc.url}/api/v1/servers/${target}/refresh`, {
        method: "POST",
        headers: { Authorization: `Bearer ${sb?.apiKey}` },
      });
      const statements = (await statementCount(proc)) - before;
      const changed = parse<{ changed?: boolean }>(answer)?.changed;
      if (answer.status !== 200 || changed !== expectChanged) section.mismatches++;
      return { ms: answer.ms, statements };
    };
    // What runs anyway meanwhile (health probes every 60 s per server write a row each): the same
    // window with nothing asked.
    const idleBefore = await statementCount(proc);
    const idleStart = now();
    const same = await refresh(false);
    await host.bump(Math.floor(servers / 2));
    const changed = await refresh(true);
    const idleWindow = now() - idleStart;
    await new Promise((r) => setTimeout(r, idleWindow));
    const idleStatements = (await statementCount(proc)) - idleBefore - same.statements - changed.statements;
    section.row(
      `POST /servers/${target}/refresh, catalog unchanged: time · statements`,
      `${ms(same.ms)} · ${same.statements}`,
      `scoped to the server (${tools} tools)`,
    );
    section.row(
      "the same, one tool's description changed: time · statements",
      `${ms(changed.ms)} · ${changed.statements}`,
      `scoped to the server (${tools} tools)`,
    );
    section.note(
      `Statements counted from /metrics (switchboard_db_query_duration_seconds_count, every operation); in an equal idle window ` +
        `the process ran ${Math.max(0, idleStatements)} of its own (health probes), included in the figures above.`,
    );
    const afterRefresh = await coldAndWarm(1 + WARM, () => mcpRequest(proc, key, "tools/list"), listed);
    section.mismatches += afterRefresh.mismatches;
    reportTimed(section, "/mcp tools/list after that change", afterRefresh, 50);

    const rss = residentMiB(proc.pid);
    if (rss)
      section.row(`resident memory of the server with ${servers} servers connected, idle`, mib(rss.own));

    // ── health checks ──
    await healthRounds(health, { ...options, proc, apiKey: sb.apiKey, key, host });

    // ── a restart with everything registered ──
    const registered = Math.max(servers, options.healthServers);
    progress(`catalog: restart with ${registered} servers registered`);
    await proc.stop();
    started = now();
    await proc.start({ waitReady: false });
    const readyMs = await untilReady(proc, started);
    health.row(`restart → ready, ${registered} servers registered`, ms(readyMs));
  } finally {
    await sb?.stop().catch(() => {});
    await host?.stop().catch(() => {});
  }
  return [section, health];
}

function reportTimed(
  section: Section,
  what: string,
  result: { cold: Timed; warmMs: number; warmCount: number },
  goalMs: number,
): void {
  const goal = `< ${goalMs} ms`;
  section.row(
    `${what}: first · size`,
    `${ms(result.cold.ms)} · ${size(result.cold.bytes)}`,
    goal,
    result.cold.ms < goalMs,
  );
  section.row(
    `${what}: median of the next ${result.warmCount}`,
    ms(result.warmMs),
    goal,
    result.warmMs < goalMs,
  );
}

type HealthWorld = CatalogOptions & {
  proc: Switchboard["proc"];
  apiKey: string;
  key: string;
  host: McpHost;
};

/** Health checks of every server, in one request and one request per server, while one agent calls echo in a loop. */
async function healthRounds(section: Section, world: HealthWorld): Promise<void> {
  const { proc, host, servers } = world;
  let registered = servers;
  for (const count of [...new Set([servers, Math.max(servers, world.healthServers)])]) {
    if (count > registered) {
      progress(`health: registering ${count - registered} more servers of ${world.healthTools} tools`);
      const started = now();
      const names = await registerHostServers(proc, host, {
        from: registered,
        to: count,
        tools: world.healthTools,
      });
      const echoIds = await waitForCatalogs(proc, names, world.healthTools, 60_000 + names.length * 1_000);
      await classify(proc, [...echoIds.values()], { effect: "read" });
      section.row(
        `register ${count - registered} more servers of ${world.healthTools} tools, catalogs stored`,
        s(now() - started),
      );
      registered = count;
    }
    progress(`health: ${count} servers`);
    const names = Array.from({ length: count }, (_, i) => serverName(i));
    const echoTool = () => `${serverName(Math.floor(Math.random() * count))}__echo`;
    const echoLoop = async (until: () => boolean, limit: number) => {
      const samples: number[] = [];
      while (samples.length < limit && !until()) {
        const text = `echo-${Math.random().toString(36).slice(2)}`;
        const call = await echoCall(proc, world.key, echoTool(), text);
        if (!call.ok) section.mismatches++;
        samples.push(call.ms);
      }
      return samples;
    };
    const quiet = await echoLoop(() => false, world.echoCalls);
    const quietP50 = stats(quiet).p50;
    /** One way of checking every server, timed, with echo calls going on meanwhile. */
    const round = async (how: string, check: () => Promise<Array<{ ok: boolean; latencyMs: number }>>) => {
      let done = false;
      const during = echoLoop(() => done, Number.POSITIVE_INFINITY);
      const cpuBefore = processTreeCpuMs(proc.pid);
      const started = now();
      const results = await check();
      const wallMs = now() - started;
      const cpuAfter = processTreeCpuMs(proc.pid);
      done = true;
      const loaded = await during;
      const failed = results.filter((r) => !r.ok).length + (count - results.length);
      section.mismatches += failed;
      const probes = stats(results.map((r) => r.latencyMs));
      const loadedP50 = stats(loaded).p50;
      section.row(
        `${count} servers health-checked (${how}): all answered`,
        `${s(wallMs)} (${failed} not ok)`,
        `< 10 s per 1,000 (${s(10 * count)})`,
        wallMs < 10 * count,
      );
      section.row(`… each probe's own latency p50 · p99`, `${ms(probes.p50)} · ${ms(probes.p99)}`);
      if (cpuBefore !== undefined && cpuAfter !== undefined) {
        section.row(
          "… CPU of the Switchboard process per check (its echo calls meanwhile included)",
          ms((cpuAfter - cpuBefore) / count),
        );
      }
      section.row(
        `… echo through /mcp p50: without · meanwhile (${quiet.length} · ${loaded.length} calls)`,
        `${ms(quietP50)} · ${ms(loadedP50)}`,
        "not delayed (≤ 1.2×)",
        loadedP50 <= quietP50 * 1.2,
      );
    };
    await round("POST /api/v1/health-checks, one request", async () => {
      const answer = await proc.api("POST", "/api/v1/health-checks", { servers: names });
      if (!answer.ok) return [];
      const body = (await answer.json()) as {
        results: Array<{ server: string; ok: boolean; latencyMs: number }>;
      };
      // Checked against the request: one result per server asked for, each named.
      const asked = new Set(names);
      return body.results
        .filter((r) => asked.delete(r.server))
        .map((r) => ({ ok: r.ok, latencyMs: r.latencyMs }));
    });
    await round(`REST, one request per server, ${world.healthConcurrency} at once`, () =>
      inParallel(names, world.healthConcurrency, async (name) => {
        const answer = await proc.api("POST", `/api/v1/servers/${name}/health-check`);
        const body = answer.ok ? ((await answer.json()) as { ok?: boolean; latencyMs?: number }) : {};
        return { ok: body.ok === true, latencyMs: body.latencyMs ?? Number.NaN };
      }),
    );
  }
  section.note(
    "Health checks asked in one request (the route probes 4 at a time), then through the per-server route, " +
      `${world.healthConcurrency} requests in flight (the product's own ` +
      "probes run on a timer per server, by default every 60 s, and were running too). Echo calls: one agent, one after another, a random server's echo.",
  );
}
