// POST /api/v1/servers/import — register servers from a client's mcpServers/servers JSON (dryRun to preview)
import { authorityOf } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { importServers } from "@/lib/servers/import-export/import-servers";

export const dynamic = "force-dynamic";

export const POST = apiRoute("manage", async ({ req, db, tenant, actor }) => ({
  report: await importServers(db, {
    tenantId: tenant.id,
    input: await readJsonBody(req),
    authority: authorityOf(actor),
  }),
}));
