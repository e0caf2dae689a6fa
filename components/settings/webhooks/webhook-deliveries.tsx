"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge, type Tone } from "@/components/ui/badge";
import { QueryFallback } from "@/components/ui/query-fallback";
import { Time } from "@/components/ui/time";
import type { DeliveryDto } from "@/lib/webhooks/types";
import { webhookDeliveriesQuery } from "./webhook-queries";

const statusTone: Record<DeliveryDto["status"], Tone> = {
  pending: "amber",
  delivered: "green",
  failed: "red",
};
const statusLabel: Record<DeliveryDto["status"], string> = {
  pending: "Retrying",
  delivered: "Delivered",
  failed: "Failed",
};

/** The latest deliveries of one webhook, each with its attempts: status, error, time taken. */
export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const { data, error } = useQuery(webhookDeliveriesQuery(webhookId));
  if (!data) return <QueryFallback error={error} what="deliveries" />;
  if (data.deliveries.length === 0)
    return (
      <p className="py-3 text-sm text-slate-500">Nothing sent yet. Send a test to see a delivery here.</p>
    );
  return (
    <ol aria-label="Deliveries" className="divide-y divide-slate-100">
      {data.deliveries.map((delivery) => {
        const isFirstPending = delivery.status === "pending" && delivery.attempts.length === 0;
        return (
          <li key={delivery.id} data-testid="webhook-delivery" className="py-2 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone={isFirstPending ? "neutral" : statusTone[delivery.status]}>
                {isFirstPending ? "Sending" : statusLabel[delivery.status]}
              </Badge>
              <span className="font-mono text-xs text-slate-800">{delivery.type}</span>
              <span className="text-slate-500">
                <Time iso={delivery.createdAt} />
              </span>
              <span className="text-slate-500">
                {delivery.attempts.length} attempt{delivery.attempts.length === 1 ? "" : "s"}
              </span>
              {delivery.status === "pending" && delivery.attempts.length > 0 && delivery.nextAttemptAt ? (
                <span className="text-slate-500">
                  next try <Time iso={delivery.nextAttemptAt} />
                </span>
              ) : null}
            </div>
            {delivery.attempts.length > 0 ? (
              <ul className="mt-1 space-y-0.5 pl-2 text-xs text-slate-600">
                {delivery.attempts.map((attempt, index) => (
                  <li key={attempt.at} data-testid="webhook-attempt">
                    #{index + 1} · <Time iso={attempt.at} /> ·{" "}
                    {attempt.error ? (
                      <span className="text-red-700">{attempt.error}</span>
                    ) : (
                      <span className="text-emerald-700">HTTP {attempt.status}</span>
                    )}{" "}
                    · {attempt.durationMs} ms
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
