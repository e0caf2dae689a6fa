import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import type { ServerDto } from "@/lib/servers/server-dto";

export const serverKeys = {
  all: ["servers"] as const,
  list: () => [...serverKeys.all, "list"] as const,
  detail: (name: string) => [...serverKeys.all, "detail", name] as const,
};

/** Shared by the server-side prefetch and the client hooks, so both use one key and one shape. */
export const serversListQuery = () =>
  queryOptions({
    queryKey: serverKeys.list(),
    queryFn: () => fetchJson<{ servers: ServerDto[] }>("/api/v1/servers").then((r) => r.servers),
  });
