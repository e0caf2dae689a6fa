import type { ToolFilter } from "./tool-filters";
import type { GovernedToolDto } from "./tool-queries";

/** The same fields as the API's ?q= search, filtered in the browser so typing needs no round trip. */
export function filterTools(tools: GovernedToolDto[], filter: ToolFilter): GovernedToolDto[] {
  const needle = filter.q.trim().toLowerCase();
  return tools.filter(
    (tool) =>
      (!filter.server || tool.serverName === filter.server) &&
      (!filter.isReviewOnly || !tool.isClassified) &&
      (!needle ||
        [tool.gatewayName, tool.name, tool.serverName, tool.title ?? "", tool.description ?? ""].some(
          (text) => text.toLowerCase().includes(needle),
        )),
  );
}

/** Tools by server, servers in name order (the API already sorts tools by server, then name). */
export function groupByServer(tools: GovernedToolDto[]): [string, GovernedToolDto[]][] {
  const groups = new Map<string, GovernedToolDto[]>();
  for (const tool of tools) groups.set(tool.serverName, [...(groups.get(tool.serverName) ?? []), tool]);
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
