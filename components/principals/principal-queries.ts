import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import type { PrincipalDto } from "@/lib/principals/types";

export type { PrincipalDto };

export const principalKeys = {
  all: ["principals"] as const,
  list: () => [...principalKeys.all, "list"] as const,
  detail: (id: string) => [...principalKeys.all, "detail", id] as const,
};

/** Shared by the server-side prefetch and the client hooks (one key, one shape). */
export const principalsListQuery = () =>
  queryOptions({
    queryKey: principalKeys.list(),
    queryFn: () => fetchJson<{ principals: PrincipalDto[] }>("/api/v1/principals").then((r) => r.principals),
  });

export const principalQuery = (id: string) =>
  queryOptions({
    queryKey: principalKeys.detail(id),
    queryFn: () =>
      fetchJson<{ principal: PrincipalDto }>(`/api/v1/principals/${encodeURIComponent(id)}`).then(
        (r) => r.principal,
      ),
  });
