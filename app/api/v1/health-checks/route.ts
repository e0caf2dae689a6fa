// POST /api/v1/health-checks — probe many servers now (every enabled one for `{}`), a few at a time
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { checkServersHealth } from "@/lib/servers/server-operations";

export const dynamic = "force-dynamic";

export const POST = apiRoute("manage", async ({ req, db, tenant }) =>
  checkServersHealth(db, { tenantId: tenant.id, input: await readJsonBody(req) }),
);
