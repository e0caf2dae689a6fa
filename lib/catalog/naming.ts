import { compareKeys, sha256Hex } from "./hashing";

/** Gateway names: how a server's tool is named through /mcp (`<server>__<tool>`), and collisions. */

/** MCP clients (Claude, Cursor, OpenAI's) refuse tool names over 64 characters. */
export const MAX_GATEWAY_NAME_LENGTH = 64;
export const GATEWAY_NAME_SEPARATOR = "__";
const HASH_SUFFIX_LENGTH = 8;
const OUTSIDE_TOOL_NAME_CHARSET = /[^A-Za-z0-9_.-]/gu;

/**
 * `<server>__<tool>`, used as is when it is short enough and made of MCP's tool-name characters.
 * Otherwise other characters become `_`, the name is cut, and `_` + 8 hex characters of the SHA-256
 * of the unaltered name are appended — so two tools that differ only in a replaced character or in
 * their tails still get different names, and the same tool always gets the same one.
 */
export function toGatewayName(serverName: string, toolName: string): string {
  const full = `${serverName}${GATEWAY_NAME_SEPARATOR}${toolName}`;
  const safe = full.replace(OUTSIDE_TOOL_NAME_CHARSET, "_");
  if (safe === full && full.length <= MAX_GATEWAY_NAME_LENGTH) return full;
  const suffix = `_${sha256Hex(full).slice(0, HASH_SUFFIX_LENGTH)}`;
  return safe.slice(0, MAX_GATEWAY_NAME_LENGTH - suffix.length) + suffix;
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
