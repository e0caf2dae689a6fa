import { z } from "zod";
import type { DatabaseDriver } from "@/lib/db/client";
import type { GatewayStatus } from "@/lib/gateway/settings/gateway-status";
import type { GatewaySettings } from "@/lib/gateway/settings/loopback-mapping";
import type { SecretSummary } from "@/lib/secrets/secrets";
import { describes } from "../type-check";

/** The gateway's settings and status; the health probe. */

export const gatewaySettingsOutputSchema = describes<GatewaySettings>()(
  z
    .object({
      loopbackPrincipal: z
        .object({ id: z.string(), name: z.string() })
        .nullable()
        .meta({ description: "The principal unauthenticated loopback requests act as; null when off." }),
      canMapLoopback: z.boolean().meta({ description: "Switchboard listens on loopback only." }),
      loopbackUnavailableReason: z.string().nullable(),
      isLoopbackHeldElsewhere: z.boolean().meta({ description: "Another workspace holds the mapping." }),
    })
    .meta({ id: "GatewaySettings" }),
);

export const gatewayStatusSchema = describes<GatewayStatus>()(
  z
    .object({
      isEnabled: z.boolean().meta({ description: "SWITCHBOARD_MCP_ENABLED: false answers 404 at /mcp." }),
      approvalWaitSeconds: z.number(),
      url: z.string().meta({ description: "Every granted tool, as `<server>__<tool>`." }),
      serverUrlTemplate: z
        .string()
        .meta({ description: "One server's tools; `{name}` is the server's name." }),
      claudeCommand: z.string(),
    })
    .meta({ id: "GatewayStatus" }),
);

export const healthSchema = describes<{ status: "ok"; database: DatabaseDriver; version: string }>()(
  z.object({
    status: z.literal("ok"),
    database: z.enum(["pglite", "postgres"]),
    version: z.string().meta({ description: "Switchboard's version." }),
  }),
);

export const secretSummarySchema = describes<SecretSummary>()(
  z
    .object({ name: z.string(), createdAt: z.string(), updatedAt: z.string() })
    .meta({ id: "Secret", description: "A secret's name and times: its value never comes back out." }),
);
