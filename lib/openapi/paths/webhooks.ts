import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { createWebhookSchema, updateWebhookSchema } from "@/lib/webhooks/webhooks";
import { operation } from "../operation";
import { webhookDeliverySchema, webhookSchema } from "../schemas/webhooks";

/** The workspace's webhooks: CRUD, "Send test" and the delivery log. */

const webhookId = z.object({ id: z.string().meta({ description: "The webhook's id." }) });
const one = z.object({ webhook: webhookSchema });

export const webhookPaths: ZodOpenApiPathsObject = {
  "/api/v1/webhooks": {
    get: operation("Webhooks", {
      id: "listWebhooks",
      summary: "The workspace's webhooks",
      description: "URLs are masked (a Slack URL is a credential); signing secrets never come back.",
      access: "manage",
      responses: [
        { status: 200, description: "The webhooks.", schema: z.object({ webhooks: z.array(webhookSchema) }) },
      ],
    }),
    post: operation("Webhooks", {
      id: "createWebhook",
      summary: "Add a webhook",
      description:
        "The URL must pass the workspace's egress policy (and does again, with the address pinned, at every " +
        "delivery). A generic webhook's signing secret is in this answer only: store it now.",
      access: "manage",
      body: createWebhookSchema,
      bodyLimitKiB: 16,
      responses: [
        {
          status: 201,
          description: "Added.",
          schema: z.object({
            webhook: webhookSchema,
            secret: z.string().nullable().meta({
              description: "The HMAC-SHA256 signing secret (generic format); null for Slack. Shown once.",
            }),
          }),
        },
      ],
    }),
  },
  "/api/v1/webhooks/{id}": {
    get: operation("Webhooks", {
      id: "getWebhook",
      summary: "One webhook",
      access: "manage",
      path: webhookId,
      responses: [{ status: 200, description: "The webhook.", schema: one }],
    }),
    patch: operation("Webhooks", {
      id: "updateWebhook",
      summary: "Change a webhook's name, URL, events, or turn it off",
      access: "manage",
      path: webhookId,
      body: updateWebhookSchema,
      bodyLimitKiB: 16,
      responses: [{ status: 200, description: "The webhook as saved.", schema: one }],
    }),
    delete: operation("Webhooks", {
      id: "deleteWebhook",
      summary: "Remove a webhook and its delivery log",
      access: "manage",
      path: webhookId,
      responses: [{ status: 204, description: "Removed." }],
    }),
  },
  "/api/v1/webhooks/{id}/test": {
    post: operation("Webhooks", {
      id: "testWebhook",
      summary: "Send a test delivery",
      description:
        "Queued and sent like any delivery (type `webhook.test`), retries included; follow it in the log.",
      access: "manage",
      path: webhookId,
      responses: [
        { status: 202, description: "Queued.", schema: z.object({ delivery: webhookDeliverySchema }) },
      ],
    }),
  },
  "/api/v1/webhooks/{id}/deliveries": {
    get: operation("Webhooks", {
      id: "listWebhookDeliveries",
      summary: "A webhook's latest deliveries, newest first, each with every attempt",
      access: "manage",
      path: webhookId,
      query: z.object({ limit: z.coerce.number().int().min(1).max(200).optional() }),
      responses: [
        {
          status: 200,
          description: "The deliveries.",
          schema: z.object({ deliveries: z.array(webhookDeliverySchema) }),
        },
      ],
    }),
  },
};
