import { infiniteQueryOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { GovernedToolDto, GovernedToolPage } from "@/lib/catalog/types";
import { fetchJson } from "@/lib/client/fetch-json";

export type { GovernedToolDto, GovernedToolPage };

/** The filters of GET /api/v1/tools the Tools page offers; empty = any. */
export type ToolFilters = { q: string; server: string; effect: string; status: string };

export const TOOLS_PAGE_SIZE = 100;
/** The most GET /api/v1/tools hands out a request: the fewest requests for "every tool". */
const ALL_TOOLS_PAGE = 500;

// Everything about tools sits under ["tools"], so one invalidation refreshes the Tools page, the
// grants editor and the playground together.
export const toolKeys = {
  all: ["tools"] as const,
  /** every tool (the grants editor, the playground, call filters) */
  list: () => [...toolKeys.all, "list"] as const,
  pages: () => [...toolKeys.all, "pages"] as const,
  /** the Tools page: one filtered list, a page at a time */
  page: (filters: Partial<ToolFilters>) => [...toolKeys.pages(), cleanFilters(filters)] as const,
  unclassifiedCount: () => [...toolKeys.all, "unclassified-count"] as const,
};

/** Only the filters that are set, so `{}` and `{ q: "" }` share one cache entry and one URL. */
export function cleanFilters(filters: Partial<ToolFilters>): Partial<ToolFilters> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => Boolean(value?.trim())),
  ) as Partial<ToolFilters>;
}

export function toolsPath(filters: Partial<ToolFilters>, options: { cursor?: string | null; limit: number }) {
  const params = new URLSearchParams(cleanFilters(filters) as Record<string, string>);
  params.set("limit", String(options.limit));
  if (options.cursor) params.set("cursor", options.cursor);
  return `/api/v1/tools?${params.toString()}`;
}

/** Every tool matching `filters`, following the cursor: for pickers that need them all. */
export async function fetchAllTools(filters: Partial<ToolFilters> = {}): Promise<GovernedToolDto[]> {
  const tools: GovernedToolDto[] = [];
  let cursor: string | null = null;
  do {
    const page: GovernedToolPage = await fetchJson(toolsPath(filters, { cursor, limit: ALL_TOOLS_PAGE }));
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** Every tool: shared by the server-side prefetch and the client hooks, one key and one shape. */
export const toolsListQuery = () =>
  queryOptions({
    queryKey: toolKeys.list(),
    queryFn: () => fetchAllTools(),
    // Catalog changes arrive through the event stream; this only catches edits made by another admin.
    refetchInterval: 30_000,
  });

/** The Tools page's list: the first page prefetched on the server, the next ones on request. */
export const toolsPageQuery = (filters: Partial<ToolFilters>) =>
  infiniteQueryOptions({
    queryKey: toolKeys.page(filters),
    queryFn: ({ pageParam }) =>
      fetchJson<GovernedToolPage>(toolsPath(filters, { cursor: pageParam, limit: TOOLS_PAGE_SIZE })),
    initialPageParam: null as string | null,
    getNextPageParam: (last: GovernedToolPage) => last.nextCursor,
    refetchInterval: 30_000,
  });

/** How many tools nobody has classified yet (enforced as external-write): one tool read, the count kept. */
export const unclassifiedCountQuery = () =>
  queryOptions({
    queryKey: toolKeys.unclassifiedCount(),
    queryFn: () =>
      fetchJson<GovernedToolPage>(toolsPath({ effect: "unclassified" }, { limit: 1 })).then(
        (page) => page.total,
      ),
  });

/** Saved tools replace their rows at once in every cached list (the refetch that follows confirms). */
export function replaceSavedTools(queryClient: QueryClient, saved: readonly GovernedToolDto[]): void {
  const byId = new Map(saved.map((tool) => [tool.id, tool]));
  const replace = (tools: GovernedToolDto[]) => tools.map((tool) => byId.get(tool.id) ?? tool);
  queryClient.setQueryData<GovernedToolDto[]>(toolKeys.list(), (tools) => tools && replace(tools));
  queryClient.setQueriesData<{ pages: GovernedToolPage[]; pageParams: unknown[] }>(
    { queryKey: toolKeys.pages() },
    (data) => data && { ...data, pages: data.pages.map((page) => ({ ...page, tools: replace(page.tools) })) },
  );
}
