import type { Metadata } from "next";
import { WebhooksPanel } from "@/components/settings/webhooks/webhooks-panel";
import { EmptyState } from "@/components/ui/empty-state";
import { getPageContext } from "@/lib/auth/page-context";
import { webhookEventLabels, webhookEventTypes } from "@/lib/webhooks/webhook-events";
import { listWebhooks } from "@/lib/webhooks/webhooks";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const { db, tenant, canManage } = await getPageContext();
  if (!canManage) {
    return (
      <EmptyState title="Only admins manage webhooks">
        Webhook URLs and their delivery logs are for the workspace's admins.
      </EmptyState>
    );
  }
  const webhooks = await listWebhooks(db, { tenantId: tenant.id });
  const eventOptions = webhookEventTypes.map((value) => ({ value, label: webhookEventLabels[value] }));
  return <WebhooksPanel webhooks={webhooks} eventOptions={eventOptions} />;
}
