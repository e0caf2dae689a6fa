// Two Switchboard processes (A, B) on one PostgreSQL database, sharing nothing else, and the
// servers the fan-out and approval parts call: `fan` (echo classified read: runs at once) and
// `gate` (echo that always needs an approval), both on one MCP host process.
import { randomBytes } from "node:crypto";
import type { SwitchboardProcess } from "../../tests/fixtures/cluster";
import {
  agentForAll,
  echoCall,
  type McpHost,
  progress,
  rest,
  type Switchboard,
  sleep,
  startMcpHost,
  startSwitchboard,
  waitForCatalogs,
} from "./world";

export type PostgresPair = {
  a: SwitchboardProcess;
  b: SwitchboardProcess;
  apiKey: string;
  /** an agent granted `*` */
  key: string;
  host: McpHost;
  stop(): Promise<void>;
};

export async function startPostgresPair(databaseUrl: string): Promise<PostgresPair> {
  const apiKey = `sb_bench-${randomBytes(16).toString("hex")}`;
  // One key for both: a secret written through one process is read by the other.
  const env = { SWITCHBOARD_SECRET_KEY: randomBytes(32).toString("base64") };
  const started: Switchboard[] = [];
  let host: McpHost | undefined;
  const stop = async () => {
    await Promise.all(started.map((sb) => sb.stop().catch(() => {})));
    await host?.stop().catch(() => {});
  };
  try {
    host = await startMcpHost();
    // One after the other: the first migrates the database.
    started.push(await startSwitchboard({ name: "A", databaseUrl, apiKey, env }));
    started.push(await startSwitchboard({ name: "B", databaseUrl, apiKey, env }));
    const [a, b] = started.map((sb) => sb.proc) as [SwitchboardProcess, SwitchboardProcess];
    for (const [name, index] of [
      ["fan", 0],
      ["gate", 1],
    ] as const) {
      await rest(a, "POST", "/api/v1/servers", {
        name,
        transport: "streamable-http",
        url: `${host.url}/s/${index}/2/mcp`,
      });
    }
    const echoIds = await waitForCatalogs(a, ["fan", "gate"], 2, 60_000);
    await rest(a, "PATCH", `/api/v1/tools/${echoIds.get("fan")}`, { effect: "read" });
    await rest(a, "PATCH", `/api/v1/tools/${echoIds.get("gate")}`, {
      effect: "read",
      approvalRule: "always",
    });
    const key = await agentForAll(a);
    // Each process has its own connection to each server: both must be able to call.
    for (const proc of [a, b]) {
      const deadline = Date.now() + 60_000;
      while (!(await echoCall(proc, key, "fan__echo", "ready?")).ok) {
        if (Date.now() > deadline)
          throw new Error(`process ${proc.name} could not call fan__echo within 60 s`);
        await sleep(250);
      }
    }
    progress("two processes ready, fan and gate registered");
    return { a, b, apiKey, key, host, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
