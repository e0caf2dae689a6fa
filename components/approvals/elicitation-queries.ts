import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import type { ElicitationDto } from "@/lib/elicitations/types";

export const elicitationKeys = {
  all: ["elicitations"] as const,
  pending: () => [...elicitationKeys.all, "pending"] as const,
};

export const pendingElicitationsQuery = () =>
  queryOptions({
    queryKey: elicitationKeys.pending(),
    queryFn: () =>
      fetchJson<{ elicitations: ElicitationDto[] }>("/api/v1/elicitations?status=pending&limit=200"),
  });
