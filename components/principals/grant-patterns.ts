import type { GovernedToolDto } from "@/components/tools/tool-queries";
import { grantMatches, wholeServerPattern } from "@/lib/policy/grant-patterns";

/** What each grant pattern covers, by the very rule the server enforces. */
export function toolsMatching(pattern: string, tools: GovernedToolDto[]): GovernedToolDto[] {
  return tools.filter((tool) => grantMatches(pattern, tool.gatewayName));
}

export type GrantSuggestion = { value: string; label: string };

/** Everything, each server, each tool — the patterns an admin most likely means. */
export function grantSuggestions(tools: GovernedToolDto[]): GrantSuggestion[] {
  const servers = new Map<string, number>();
  for (const tool of tools) servers.set(tool.serverName, (servers.get(tool.serverName) ?? 0) + 1);
  return [
    { value: "*", label: `every tool (${tools.length} now, and any added later), resource and prompt` },
    ...[...servers].map(([server, count]) => ({
      value: `${server}__*`,
      label: `every tool of ${server} (${count} now), its resources and prompts`,
    })),
    ...tools.map((tool) => ({ value: tool.gatewayName, label: tool.title ?? tool.serverName })),
  ];
}

export type ServerBranch = { serverName: string; tools: GovernedToolDto[] };

/** The picker's tree: servers by name, each with its tools by name. */
export function serverTree(tools: GovernedToolDto[]): ServerBranch[] {
  const servers = new Map<string, GovernedToolDto[]>();
  for (const tool of tools) servers.set(tool.serverName, [...(servers.get(tool.serverName) ?? []), tool]);
  return [...servers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([serverName, list]) => ({
      serverName,
      tools: [...list].sort((a, b) => a.gatewayName.localeCompare(b.gatewayName)),
    }));
}

/**
 * Picking a whole server makes its single tools redundant: the picked set keeps the server's
 * pattern only. Unpicking it leaves nothing of that server picked.
 */
export function togglePick(picked: readonly string[], pattern: string, serverName: string): string[] {
  if (picked.includes(pattern)) return picked.filter((p) => p !== pattern);
  if (pattern === wholeServerPattern(serverName)) {
    return [...picked.filter((p) => !p.startsWith(`${serverName}__`)), pattern];
  }
  return [...picked, pattern];
}
