import { z } from "zod";
import type { DatabaseDriver } from "@/lib/db/client";
import type { GatewayStatus, ToolListSizes } from "@/lib/gateway/settings/gateway-status";
import type { GatewaySettings } from "@/lib/gateway/settings/loopback-mapping";
import type { Readiness } from "@/lib/runtime/readiness";
import type { SecretSummary } from "@/lib/secrets/secrets";
import { describes } from "../type-check";

/** The gateway's settings and status; the liveness and readiness probes. */

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
      gatewayNameBudget: z.number().int().meta({
        description:
          "The longest gateway name handed out (32–64, default 46: Claude Code adds `mcp__switchboard__`, and model APIs refuse names over 64).",
      }),
    })
    .meta({ id: "GatewaySettings" }),
);

export const gatewayStatusSchema = describes<GatewayStatus>()(
  z
    .object({
      isEnabled: z.boolean().meta({ description: "SWITCHBOARD_MCP_ENABLED: false answers 404 at /mcp." }),
      approvalWaitSeconds: z.number(),
      url: z.string().meta({
        description:
          "Every granted tool, as `<server>__<tool>` in `[A-Za-z0-9_-]`, shortened with a hash past the name budget.",
      }),
      discoverUrl: z.string().meta({
        description:
          "Discovery mode: tools/list holds only Switchboard's tools; every granted tool is found with switchboard__search_tools and run with switchboard__call_tool.",
      }),
      serverUrlTemplate: z
        .string()
        .meta({ description: "One server's tools; `{name}` is the server's name." }),
      claudeCommand: z.string(),
      discoverClaudeCommand: z.string(),
    })
    .meta({ id: "GatewayStatus" }),
);

export const toolListSizesSchema = describes<ToolListSizes>()(
  z
    .object({
      discoverBytes: z
        .number()
        .int()
        .meta({ description: "The JSON size of /mcp/discover's tools/list (the same for every principal)." }),
      principals: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          tools: z
            .number()
            .int()
            .meta({ description: "Granted, callable tools: what /mcp lists besides Switchboard's own." }),
          fullBytes: z
            .number()
            .int()
            .meta({ description: "The JSON size of /mcp's tools/list for this principal." }),
        }),
      ),
    })
    .meta({
      id: "ToolListSizes",
      description: "tools/list's size in each gateway mode, measured per principal.",
    }),
);

const replicaIdSchema = z.string().meta({
  description:
    "The replica that answered: SWITCHBOARD_REPLICA_ID, or host:port (GET /api/v1/replicas lists them all).",
});

export const healthSchema = describes<{
  status: "ok";
  database: DatabaseDriver;
  version: string;
  replica: string;
}>()(
  z.object({
    status: z.literal("ok"),
    database: z.enum(["pglite", "postgres"]),
    version: z.string().meta({ description: "Switchboard's version." }),
    replica: replicaIdSchema,
  }),
);

export const secretSummarySchema = describes<SecretSummary>()(
  z
    .object({ name: z.string(), createdAt: z.string(), updatedAt: z.string() })
    .meta({ id: "Secret", description: "A secret's name and times: its value never comes back out." }),
);

const dependencyCheckSchema = z.object({
  ok: z.boolean(),
  reason: z
    .string()
    .optional()
    .meta({ description: "Why not, for a person: what is down and that it is retried." }),
});

export const readinessSchema = describes<Readiness & { version: string; replica: string }>()(
  z
    .object({
      status: z.enum(["starting", "ready", "degraded", "stopping"]).meta({
        description:
          "`starting` until the process has been ready once; `degraded` when a dependency is down after that; `stopping` once it is shutting down (SIGTERM): it takes no new calls.",
      }),
      checks: z.object({
        database: dependencyCheckSchema,
        relay: dependencyCheckSchema.meta({
          description: "The event relay: events of other processes reach this one.",
        }),
        pool: dependencyCheckSchema.meta({ description: "The connection pool to the MCP servers." }),
      }),
      version: z.string().meta({ description: "Switchboard's version." }),
      replica: replicaIdSchema,
    })
    .meta({ id: "Readiness" }),
);
