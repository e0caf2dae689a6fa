// GET /api/v1/events — the workspace's event history, paged (?before=&after=&limit=&server=&call=&type=)
import { listEvents, parseEventPageQuery } from "@/lib/events/history";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) =>
  listEvents(db, { tenantId: tenant.id, ...parseEventPageQuery(new URL(req.url).searchParams) }),
);
