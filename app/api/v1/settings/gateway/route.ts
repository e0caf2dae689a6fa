// GET · PUT /api/v1/settings/gateway — the gateway's state, URLs and tools/list sizes; the loopback → principal mapping
import { describeGateway, measureToolLists } from "@/lib/gateway/settings/gateway-status";
import { getGatewaySettings, putGatewaySettings } from "@/lib/gateway/settings/loopback-mapping";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { requestOrigin } from "@/lib/http/request-origin";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) => ({
  settings: await getGatewaySettings(db, { tenantId: tenant.id }),
  gateway: describeGateway(requestOrigin(req.headers)),
  toolLists: await measureToolLists(db, { tenantId: tenant.id }),
}));

export const PUT = apiRoute("manage", async ({ req, db, tenant, actor }) => ({
  settings: await putGatewaySettings(db, { tenantId: tenant.id, input: await readJsonBody(req), actor }),
}));
