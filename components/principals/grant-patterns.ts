import type { GovernedToolDto } from "@/components/tools/tool-queries";
import { grantMatches } from "@/lib/policy/grant-patterns";

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
