import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/**
 * The protocol half of a health check. ping is optional in MCP, so a server that answers
 * "method not found" to it is probed with tools/list instead: a server that lists its tools works.
 */

// Lenient on purpose: one malformed tool must not make a working server look unhealthy.
const anyListResult = z.looseObject({ tools: z.array(z.unknown()) });

export type ProbeMethod = "ping" | "tools/list";

export async function probeServer(
  client: Client,
  options: { timeoutMs: number; method: ProbeMethod },
): Promise<ProbeMethod> {
  if (options.method === "ping") {
    try {
      await client.ping({ timeout: options.timeoutMs });
      return "ping";
    } catch (error) {
      if (!(error instanceof McpError && error.code === ErrorCode.MethodNotFound)) throw error;
    }
  }
  await client.request({ method: "tools/list" }, anyListResult, { timeout: options.timeoutMs });
  return "tools/list";
}
