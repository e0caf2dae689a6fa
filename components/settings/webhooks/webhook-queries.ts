import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/client/fetch-json";
import type { DeliveryDto } from "@/lib/webhooks/types";

export const webhookKeys = {
  deliveries: (id: string) => ["webhooks", id, "deliveries"] as const,
};

/** A webhook's delivery log; polled often while a delivery waits for its next attempt. */
export const webhookDeliveriesQuery = (id: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: () =>
      fetchJson<{ deliveries: DeliveryDto[] }>(
        `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries?limit=20`,
      ),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.status === "pending") ? 1_000 : 10_000,
  });
