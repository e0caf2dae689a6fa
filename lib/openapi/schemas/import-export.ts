import { z } from "zod";
import { transports } from "@/lib/servers/config-schema";
import { clientFormats } from "@/lib/servers/import-export/client-formats";
import type { ClientExport } from "@/lib/servers/import-export/export-client-config";
import type { ImportReport } from "@/lib/servers/import-export/import-servers";
import { errorBodySchema } from "../operation";
import { describes } from "../type-check";

/** Client configurations in and out: the import report, the export for a client. */

const importActions = ["create", "update", "unchanged", "error"] as const;

export const importReportSchema = describes<ImportReport>()(
  z
    .object({
      format: z.enum(clientFormats).meta({ description: "The format read (detected with `auto`)." }),
      dryRun: z.boolean(),
      entries: z.array(
        z.object({
          source: z.string().meta({ description: "The entry's name in the file." }),
          name: z.string().nullable(),
          transport: z.enum(transports).nullable(),
          action: z.enum(importActions),
          secrets: z
            .array(
              z.object({
                name: z.string(),
                from: z.string(),
                change: z.enum(["create", "update", "unchanged", "needs-value"]),
              }),
            )
            .meta({ description: "Names and origins only — never a value." }),
          warnings: z.array(z.string()),
          error: errorBodySchema.shape.error.nullable(),
        }),
      ),
      summary: z.object({
        create: z.number(),
        update: z.number(),
        unchanged: z.number(),
        error: z.number(),
      }),
    })
    .meta({ id: "ImportReport" }),
);

export const clientExportSchema = describes<ClientExport>()(
  z
    .object({
      format: z.enum(clientFormats),
      fileName: z.string().meta({ description: "Where the client reads the file." }),
      config: z.record(z.string(), z.unknown()).meta({
        description: "The file's contents: the gateway as one server, a key placeholder (never a key).",
      }),
      permissions: z
        .object({ allow: z.array(z.string()), ask: z.array(z.string()) })
        .nullable()
        .meta({ description: "Claude Code only: the `permissions` section for .claude/settings.json." }),
      gatewayUrl: z.string(),
      serverName: z.string(),
      apiKeyVariable: z.string(),
      principal: z.string().nullable(),
      instructions: z.array(z.string()),
    })
    .meta({ id: "ClientExport" }),
);
