import { compareKeys, sha256Hex } from "./hashing";

/**
 * Gateway names: how a server's tool is named through /mcp (`<server>__<tool>`), and collisions.
 *
 * A name must fit two rules of the clients, not only MCP's: Claude Code prefixes it with
 * `mcp__<client's server name>__` (18 characters for `switchboard`) and the model APIs refuse a
 * tool name over 64 characters — so a workspace keeps its names within a budget (default 46);
 * and Claude Code rewrites every character outside `[A-Za-z0-9_-]` to `_`, so a dotted name would
 * never match an exported permission rule — so names use only those characters.
 */

/** The hard limit of the model APIs and of MCP clients: no budget may exceed it. */
export const MAX_GATEWAY_NAME_LENGTH = 64;
/** 64 − `mcp__switchboard__` (18): every name still fits once Claude Code prefixes it. */
export const DEFAULT_GATEWAY_NAME_BUDGET = 46;
/** Below this, a shortened name would keep too little of the server and tool to be read. */
export const MIN_GATEWAY_NAME_BUDGET = 32;
export const GATEWAY_NAME_SEPARATOR = "__";
const HASH_SUFFIX_LENGTH = 8;
const OUTSIDE_TOOL_NAME_CHARSET = /[^A-Za-z0-9_-]/gu;

/**
 * `<server>__<tool>`, used as is when it is short enough and made of `[A-Za-z0-9_-]`. A `.` becomes
 * `_` with no hash: Claude Code does exactly that itself, so a name people already saw there stays
 * the same. Any other character outside the set becomes `_` too, and then — or when the name is
 * longer than the budget — the name is cut and `_` + 8 hex characters of the SHA-256 of the
 * unaltered name are appended, so two tools that differ only in a replaced character or in their
 * tails still get different names, and the same tool always gets the same one. (`get.weather` and
 * `get_weather` of one server do meet: a collision, reported and refused like any other.)
 */
export function toGatewayName(
  serverName: string,
  toolName: string,
  budget: number = DEFAULT_GATEWAY_NAME_BUDGET,
): string {
  const limit = Math.min(Math.max(Math.trunc(budget), MIN_GATEWAY_NAME_BUDGET), MAX_GATEWAY_NAME_LENGTH);
  const full = `${serverName}${GATEWAY_NAME_SEPARATOR}${toolName}`;
  const dotless = full.replaceAll(".", "_");
  const safe = dotless.replace(OUTSIDE_TOOL_NAME_CHARSET, "_");
  if (safe === dotless && safe.length <= limit) return safe;
  const suffix = `_${sha256Hex(full).slice(0, HASH_SUFFIX_LENGTH)}`;
  return safe.slice(0, limit - suffix.length) + suffix;
}

/** Whether a tool is advertised under its plain `<server>__<tool>` (not rewritten nor shortened). */
export function isPlainGatewayName(serverName: string, toolName: string, gatewayName: string): boolean {
  return gatewayName === `${serverName}${GATEWAY_NAME_SEPARATOR}${toolName}`;
}

export type GatewayToolRef = { serverName: string; toolName: string; gatewayName?: string };
export type NameCollision = { gatewayName: string; tools: { serverName: string; toolName: string }[] };

/**
 * Tools that would be exposed under one gateway name (e.g. server `a` tool `b__c` and server `a__b`
 * tool `c`, or two names that shorten alike). Every member is listed so the conflict can be shown on
 * each server involved; the gateway must refuse to pick a winner.
 */
export function detectNameCollisions(refs: readonly GatewayToolRef[]): NameCollision[] {
  const groups = new Map<string, Map<string, { serverName: string; toolName: string }>>();
  for (const ref of refs) {
    const gatewayName = ref.gatewayName ?? toGatewayName(ref.serverName, ref.toolName);
    const group = groups.get(gatewayName) ?? new Map();
    // The same tool listed twice is not a collision with itself.
    group.set(JSON.stringify([ref.serverName, ref.toolName]), {
      serverName: ref.serverName,
      toolName: ref.toolName,
    });
    groups.set(gatewayName, group);
  }
  const collisions: NameCollision[] = [];
  for (const [gatewayName, members] of groups) {
    if (members.size < 2) continue;
    const tools = [...members.values()].sort(
      (a, b) => compareKeys(a.serverName, b.serverName) || compareKeys(a.toolName, b.toolName),
    );
    collisions.push({ gatewayName, tools });
  }
  return collisions.sort((a, b) => compareKeys(a.gatewayName, b.gatewayName));
}
