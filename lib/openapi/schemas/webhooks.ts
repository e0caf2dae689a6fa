import { z } from "zod";
import type { DeliveryDto } from "@/lib/webhooks/deliveries";
import type { WebhookDto } from "@/lib/webhooks/webhooks";
import { describes } from "../type-check";

/** Webhooks and their deliveries, as the API answers them: URLs masked, secrets never. */

export const webhookSchema = describes<WebhookDto>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      format: z.enum(["slack", "generic"]),
      url: z.string().meta({ description: "Scheme and host; the path masked but its last 4 characters." }),
      events: z.array(z.string()),
      enabled: z.boolean(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: "Webhook" }),
);

export const webhookDeliverySchema = describes<DeliveryDto>()(
  z
    .object({
      id: z.string().meta({ description: "Sent as X-Switchboard-Delivery; the same on every attempt." }),
      type: z.string(),
      status: z.enum(["pending", "delivered", "failed"]),
      attempts: z.array(
        z.object({
          at: z.string(),
          status: z
            .number()
            .nullable()
            .meta({ description: "The receiver's HTTP status; null when none came." }),
          error: z.string().nullable(),
          durationMs: z.number(),
        }),
      ),
      nextAttemptAt: z
        .string()
        .nullable()
        .meta({ description: "When it is tried again; null once it ended." }),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: "WebhookDelivery" }),
);
