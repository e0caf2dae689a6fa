import { queryOptions } from "@tanstack/react-query";
import type { GovernedToolDto } from "@/lib/catalog/types";
import { fetchJson } from "@/lib/client/fetch-json";

export type { GovernedToolDto };

// One key factory for the catalog across servers: the Tools page, the grants editor and the
// playground all read (and invalidate) the same list.
export const toolKeys = {
  all: ["tools"] as const,
  list: () => [...toolKeys.all, "list"] as const,
};

/** Shared by the server-side prefetch and the client hooks, so both use one key and one shape. */
export const toolsListQuery = () =>
  queryOptions({
    queryKey: toolKeys.list(),
    queryFn: () => fetchJson<{ tools: GovernedToolDto[] }>("/api/v1/tools").then((r) => r.tools),
    // Catalog changes arrive through the event stream; this only catches edits made by another admin.
    refetchInterval: 30_000,
  });
