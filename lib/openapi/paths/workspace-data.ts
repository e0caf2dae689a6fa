import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { auditQuerySchema } from "@/lib/auth/audit-log";
import { eventFilterSchema } from "@/lib/events/filter";
import { eventPageQuerySchema } from "@/lib/events/history";
import { gatewaySettingsSchema } from "@/lib/gateway/settings/loopback-mapping";
import { gatewayNameBudgetInputSchema } from "@/lib/gateway/settings/name-budget";
import { putSecretSchema, secretNameSchema } from "@/lib/secrets/secrets";
import { operation } from "../operation";
import { eventPageSchema } from "../schemas/events";
import { auditPageSchema } from "../schemas/people";
import {
  gatewaySettingsOutputSchema,
  gatewayStatusSchema,
  secretSummarySchema,
  toolListSizesSchema,
} from "../schemas/settings";

/** Events, the audit trail, secrets and the gateway's settings. */

const eventFilter = eventFilterSchema.extend({
  server: eventFilterSchema.shape.server.meta({ description: "A server's id or name." }),
  call: eventFilterSchema.shape.call.meta({ description: "A call's id." }),
  type: eventFilterSchema.shape.type.meta({
    description: "Comma-separated types or prefixes: `call.approved`, `call.` (every call event).",
  }),
});

const secretName = z.object({ name: secretNameSchema.meta({ description: "The secret's name." }) });
const settingsBody = z.object({ settings: gatewaySettingsOutputSchema });

export const workspaceDataPaths: ZodOpenApiPathsObject = {
  "/api/v1/events": {
    get: operation("Events", {
      id: "listEvents",
      summary: "The workspace's event history, paged",
      description: "Newest first; with `after`, oldest first.",
      access: "read",
      query: eventPageQuerySchema.extend(eventFilter.shape),
      responses: [{ status: 200, description: "One page.", schema: eventPageSchema }],
    }),
  },
  "/api/v1/events/stream": {
    get: operation("Events", {
      id: "streamEvents",
      summary: "The workspace's events as they happen (Server-Sent Events)",
      description:
        "Each SSE message carries one `Event` as JSON, its id as the SSE id. Reconnecting with `Last-Event-ID` " +
        "replays what was missed.",
      access: "read",
      query: eventFilter,
      headers: z.object({
        "Last-Event-ID": z.string().optional().meta({ description: "Resume after this event id." }),
      }),
      responses: [
        {
          status: 200,
          description: "An endless event stream.",
          mediaType: "text/event-stream",
          schema: z.string(),
        },
      ],
    }),
  },
  "/api/v1/audit": {
    get: operation("Audit", {
      id: "listAuditEntries",
      summary: "The workspace's audit trail, newest first",
      access: "manage",
      query: auditQuerySchema,
      responses: [{ status: 200, description: "One page.", schema: auditPageSchema }],
    }),
  },
  "/api/v1/secrets": {
    get: operation("Secrets", {
      id: "listSecrets",
      summary: "Names and times of the workspace's secrets",
      description: "Never values.",
      access: "read",
      responses: [
        {
          status: 200,
          description: "The secrets.",
          schema: z.object({ secrets: z.array(secretSummarySchema) }),
        },
      ],
    }),
  },
  "/api/v1/secrets/{name}": {
    put: operation("Secrets", {
      id: "putSecret",
      summary: "Write a secret (write-only)",
      description: 'Servers refer to it as `{"secret": NAME}`; its value never comes back out.',
      access: "manage",
      path: secretName,
      body: putSecretSchema,
      bodyLimitKiB: 80,
      responses: [
        { status: 200, description: "Replaced.", schema: z.object({ secret: secretSummarySchema }) },
        { status: 201, description: "Created.", schema: z.object({ secret: secretSummarySchema }) },
      ],
    }),
    delete: operation("Secrets", {
      id: "deleteSecret",
      summary: "Remove a secret",
      access: "manage",
      path: secretName,
      responses: [{ status: 204, description: "Removed." }],
    }),
  },
  "/api/v1/settings/gateway": {
    get: operation("Gateway", {
      id: "getGatewaySettings",
      summary: "The gateway's state and URLs; the loopback → principal mapping",
      access: "read",
      responses: [
        {
          status: 200,
          description: "Settings and status.",
          schema: z.object({
            settings: gatewaySettingsOutputSchema,
            gateway: gatewayStatusSchema,
            toolLists: toolListSizesSchema,
          }),
        },
      ],
    }),
    put: operation("Gateway", {
      id: "putGatewaySettings",
      summary: "Map unauthenticated loopback requests to a principal, or turn it off",
      access: "manage",
      body: gatewaySettingsSchema,
      responses: [{ status: 200, description: "The settings as saved.", schema: settingsBody }],
      errors: [
        [403, "Switchboard does not listen on loopback only (`policy_denied`)"],
        [409, "Another workspace holds the mapping"],
      ],
    }),
  },
  "/api/v1/settings/gateway/name-budget": {
    put: operation("Gateway", {
      id: "putGatewayNameBudget",
      summary: "Set the longest gateway name the workspace hands out, renaming tools to fit",
      description:
        "Gateway names (`<server>__<tool>` on /mcp) longer than the budget are cut and end in `_` + 8 hex " +
        "characters of a hash. Claude Code prefixes each name with `mcp__switchboard__` (18 characters) and the " +
        "model APIs refuse tool names over 64, hence the default of 46. Changing it renames the tools at once; " +
        "grants of an exact name and allow rules follow the rename, wildcard grants cover the new names as before.",
      access: "manage",
      body: gatewayNameBudgetInputSchema,
      responses: [{ status: 200, description: "The settings as saved.", schema: settingsBody }],
      errors: [[400, "Not a whole number from 32 to 64"]],
    }),
  },
};
