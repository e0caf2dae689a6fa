import { queryOptions } from "@tanstack/react-query";
import type { CatalogEntryDto, SnapshotDto, ToolDto } from "@/lib/catalog/types";
import { fetchJson } from "@/lib/client/fetch-json";
import type { OAuthStatus as OAuthStatusDto } from "@/lib/oauth/types";
import type { ServerDiagnosticsDto, ServerDto } from "@/lib/servers/types";

/** The wire shape of GET /api/v1/servers/{name}/diagnostics (dates are already ISO strings). */
/** The wire shape of GET /api/v1/servers/{name}/oauth: how Switchboard is signed in to an OAuth server. */
export type { OAuthStatusDto, ServerDiagnosticsDto };
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
  oauth: (name: string) => [...serverKeys.detail(name), "oauth"] as const,
};

const serverPath = (name: string, part = "") => `/api/v1/servers/${encodeURIComponent(name)}${part}`;

/*
 * Shared by the server-side prefetch and the client hooks, so both use one key and one shape. None
 * polls by itself: the pages that show them follow the event stream (use-live-servers.ts) and poll
 * only while it is down.
 */
export const serversListQuery = () =>
  queryOptions({
    queryKey: serverKeys.list(),
    queryFn: () => fetchJson<{ servers: ServerDto[] }>("/api/v1/servers").then((r) => r.servers),
  });

export const serverQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.server(name),
    queryFn: () => fetchJson<{ server: ServerDto }>(serverPath(name)).then((r) => r.server),
  });

export const serverDiagnosticsQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.diagnostics(name),
    queryFn: () => fetchJson<ServerDiagnosticsDto>(serverPath(name, "/diagnostics")),
  });

export const serverToolsQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.tools(name),
    queryFn: () => fetchJson<{ tools: ToolDto[] }>(serverPath(name, "/tools")).then((r) => r.tools),
  });

export const serverResourcesQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.resources(name),
    queryFn: () => fetchJson<ServerResourcesDto>(serverPath(name, "/resources")),
  });

export const serverPromptsQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.prompts(name),
    queryFn: () =>
      fetchJson<{ prompts: CatalogEntryDto[] }>(serverPath(name, "/prompts")).then((r) => r.prompts),
  });

export const serverSnapshotsQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.snapshots(name),
    queryFn: () =>
      fetchJson<{ snapshots: SnapshotDto[] }>(serverPath(name, "/snapshots")).then((r) => r.snapshots),
  });

export const serverOAuthQuery = (name: string) =>
  queryOptions({
    queryKey: serverKeys.oauth(name),
    queryFn: () => fetchJson<{ oauth: OAuthStatusDto }>(serverPath(name, "/oauth")).then((r) => r.oauth),
  });

/**
 * Starts the sign-in: Switchboard answers the authorization server's URL, which the browser must
 * open (the server's own page asks for consent, then redirects back to /oauth/callback).
 */
export const startServerOAuth = (name: string, scope?: string) =>
  fetchJson<{ authorizationUrl: string }>(serverPath(name, "/oauth/connect"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(scope ? { scope } : {}),
  });

/** Deletes the server's tokens (revoked at the server when it supports RFC 7009). */
export const disconnectServerOAuth = (name: string) =>
  fetchJson<{ oauth: OAuthStatusDto; revoked: boolean }>(serverPath(name, "/oauth"), { method: "DELETE" });
