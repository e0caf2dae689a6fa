import { queryOptions } from "@tanstack/react-query";
import type { CatalogEntryDto, SnapshotDto, ToolDto } from "@/lib/catalog/read-catalog";
import { fetchJson } from "@/lib/client/fetch-json";
import type { ServerDto } from "@/lib/servers/server-dto";
import type { getServerDiagnostics } from "@/lib/servers/server-operations";

/** The wire shape of GET /api/v1/servers/{name}/diagnostics (dates are already ISO strings). */
export type ServerDiagnosticsDto = Awaited<ReturnType<typeof getServerDiagnostics>>;
export type ServerResourcesDto = { resources: CatalogEntryDto[]; resourceTemplates: CatalogEntryDto[] };

// Everything about one server sits under detail(name), so invalidating that key after an operation
// refreshes the server, its catalog, its snapshots and its diagnostics together.
export const serverKeys = {
  all: ["servers"] as const,
  list: () => [...serverKeys.all, "list"] as const,
  detail: (name: string) => [...serverKeys.all, "detail", name] as const,
  server: (name: string) => [...serverKeys.detail(name), "server"] as const,
  tools: (name: string) => [...serverKeys.detail(name), "tools"] as const,
  resources: (name: string) => [...serverKeys.detail(name), "resources"] as const,
  prompts: (name: string) => [...serverKeys.detail(name), "prompts"] as const,
  snapshots: (name: string) => [...serverKeys.detail(name), "snapshots"] as const,
  diagnostics: (name: string) => [...serverKeys.detail(name), "diagnostics"] as const,
};

/** Until the SSE stream feeds the cache, the live parts of the detail page poll this often. */
export const LIVE_REFETCH_MS = 3_000;
/** The catalog changes rarely (connect, list_changed, refresh); polled more slowly until SSE. */
const CATALOG_REFETCH_MS = 5_000;

const serverPath = (name: string, part = "") => `/api/v1/servers/${encodeURIComponent(name)}${part}`;

/** Shared by the server-side prefetch and the client hooks, so both use one key and one shape. */
export const serversListQuery = () =>
  queryOptions({
    queryKey: serverKeys.list(),
    queryFn: () => fetchJson<{ servers: ServerDto[] }>("/api/v1/servers").then((r) => r.servers),
    refetchInterval: LIVE_REFETCH_MS,
  });

export const serverQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.server(name),
    queryFn: () => fetchJson<{ server: ServerDto }>(serverPath(name)).then((r) => r.server),
    refetchInterval: LIVE_REFETCH_MS,
  });

export const serverDiagnosticsQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.diagnostics(name),
    queryFn: () => fetchJson<ServerDiagnosticsDto>(serverPath(name, "/diagnostics")),
    refetchInterval: LIVE_REFETCH_MS,
  });

export const serverToolsQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.tools(name),
    queryFn: () => fetchJson<{ tools: ToolDto[] }>(serverPath(name, "/tools")).then((r) => r.tools),
    refetchInterval: CATALOG_REFETCH_MS,
  });

export const serverResourcesQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.resources(name),
    queryFn: () => fetchJson<ServerResourcesDto>(serverPath(name, "/resources")),
    refetchInterval: CATALOG_REFETCH_MS,
  });

export const serverPromptsQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.prompts(name),
    queryFn: () =>
      fetchJson<{ prompts: CatalogEntryDto[] }>(serverPath(name, "/prompts")).then((r) => r.prompts),
    refetchInterval: CATALOG_REFETCH_MS,
  });

export const serverSnapshotsQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.snapshots(name),
    queryFn: () =>
      fetchJson<{ snapshots: SnapshotDto[] }>(serverPath(name, "/snapshots")).then((r) => r.snapshots),
    refetchInterval: CATALOG_REFETCH_MS,
  });
