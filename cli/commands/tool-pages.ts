import type { ApiClient } from "../api-client";
import type { ToolFiltersWire, ToolPageWire, ToolWire } from "../wire-types";

/** The most GET /api/v1/tools hands out a request. */
const PAGE_MAX = 500;

/**
 * The tools matching `filters`, following nextCursor page after page: all of them, or the first
 * `max`. Filters go to the server, which pages through its own index; nothing is filtered here.
 */
export async function listTools(
  client: ApiClient,
  filters: ToolFiltersWire = {},
  max = Number.POSITIVE_INFINITY,
): Promise<ToolWire[]> {
  const tools: ToolWire[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.get<ToolPageWire>("/api/v1/tools", {
      ...filters,
      limit: Math.min(PAGE_MAX, max - tools.length),
      cursor,
    });
    tools.push(...page.tools);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && tools.length < max);
  return tools;
}
