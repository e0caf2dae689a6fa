"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import {
  deleteWebhookAction,
  setWebhookEnabledAction,
  testWebhookAction,
} from "@/app/(dashboard)/settings/webhooks/actions";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmButton, confirmAction } from "@/components/ui/confirm-button";
import { EmptyState } from "@/components/ui/empty-state";
import type { WebhookDto } from "@/lib/webhooks/types";
import { WebhookDeliveries } from "./webhook-deliveries";
import { type EventOption, WebhookForm } from "./webhook-form";
import { webhookKeys } from "./webhook-queries";

/** Settings → Webhooks: the add form, then each webhook with its actions and delivery log. */
export function WebhooksPanel({
  webhooks,
  eventOptions,
}: {
  webhooks: WebhookDto[];
  eventOptions: EventOption[];
}) {
  const labelOf = new Map(eventOptions.map((o) => [o.value, o.label]));
  return (
    <>
      <WebhookForm eventOptions={eventOptions} />
      {webhooks.length === 0 ? (
        <EmptyState title="No webhooks yet">
          Add one to hear about approvals waiting for a decision in Slack or in your own systems.
        </EmptyState>
      ) : (
        <ul className="space-y-4">
          {webhooks.map((webhook) => (
            <WebhookCard key={webhook.id} webhook={webhook} labelOf={labelOf} />
          ))}
        </ul>
      )}
    </>
  );
}

function WebhookCard({ webhook, labelOf }: { webhook: WebhookDto; labelOf: Map<string, string> }) {
  const [message, setMessage] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const router = useRouter();
  const queryClient = useQueryClient();
  const refreshLog = () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhook.id) });

  const run = (action: () => ReturnType<typeof testWebhookAction>, after: () => unknown) =>
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? null : result.error.message);
      await after();
    });

  return (
    <li
      data-testid={`webhook-${webhook.name}`}
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      aria-label={webhook.name}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
            {webhook.name}
            <Badge tone="blue">{webhook.format === "slack" ? "Slack" : "Generic, signed"}</Badge>
            {webhook.enabled ? <Badge tone="green">On</Badge> : <Badge tone="slate">Off</Badge>}
          </h3>
          <p className="mt-1 font-mono text-xs text-slate-600">{webhook.url}</p>
          <p className="mt-1 text-xs text-slate-600">
            {webhook.events.map((event) => labelOf.get(event) ?? event).join(" · ")}
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="secondary"
            disabled={isPending}
            onClick={() => run(() => testWebhookAction(webhook.id), refreshLog)}
          >
            Send test
          </Button>
          <Button
            variant="ghost"
            disabled={isPending}
            onClick={() =>
              run(
                () => setWebhookEnabledAction(webhook.id, !webhook.enabled),
                () => router.refresh(),
              )
            }
          >
            {webhook.enabled ? "Turn off" : "Turn on"}
          </Button>
          <ConfirmButton
            label="Delete"
            ariaLabel={`Delete ${webhook.name}`}
            title={`Delete ${webhook.name}?`}
            confirmLabel="Delete webhook"
            pendingLabel="Deleting…"
            onConfirm={confirmAction(
              () => deleteWebhookAction(webhook.id),
              () => router.refresh(),
            )}
          >
            Nothing more is sent to it, and its delivery log goes with it.
          </ConfirmButton>
        </div>
      </div>
      {message ? (
        <div className="mt-3">
          <Alert title="Not done">{message}</Alert>
        </div>
      ) : null}
      <div className="mt-3 border-t border-slate-100 pt-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Recent deliveries</h4>
        <WebhookDeliveries webhookId={webhook.id} />
      </div>
    </li>
  );
}
