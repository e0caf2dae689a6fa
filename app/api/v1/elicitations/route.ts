// GET /api/v1/elicitations?status=pending|answered — servers' questions waiting for an operator, or answered
import { listElicitations } from "@/lib/elicitations/list-elicitations";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) =>
  listElicitations(db, { tenantId: tenant.id, query: Object.fromEntries(new URL(req.url).searchParams) }),
);
