import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { exportQuerySchema } from "@/lib/servers/import-export/export-client-config";
import { importRequestSchema } from "@/lib/servers/import-export/import-servers";
import { operation } from "../operation";
import { clientExportSchema, importReportSchema } from "../schemas/import-export";

/** /api/v1/servers/import and /export: client configurations in and out. */

const tag = "Servers";

export const importExportPaths: ZodOpenApiPathsObject = {
  "/api/v1/servers/import": {
    post: operation(tag, {
      id: "importServers",
      summary: "Register servers from a client's configuration",
      description:
        "Reads a client's `mcpServers`/`servers` JSON (Claude Desktop, Claude Code, Cursor, VS Code). Each entry is " +
        "checked like a registration, its credential values stored as secrets, then registered — or updated when a " +
        "server of that name exists. A bad entry is reported and the rest go on; `dryRun` reads but writes nothing.",
      access: "manage",
      body: importRequestSchema,
      responses: [
        {
          status: 200,
          description: "What was (or would be) done per entry.",
          schema: z.object({ report: importReportSchema }),
        },
      ],
    }),
  },
  "/api/v1/servers/export": {
    get: operation(tag, {
      id: "exportClientConfig",
      summary: "A client configuration that points at the gateway",
      description:
        "With `principal`, Claude Code's permissions cover only the tools that principal is granted.",
      access: "read",
      query: exportQuerySchema,
      responses: [
        {
          status: 200,
          description: "The file and how to install it.",
          schema: z.object({ export: clientExportSchema }),
        },
      ],
      errors: [[404, "No principal of that name"]],
    }),
  },
};
