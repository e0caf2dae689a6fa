// GET /api/v1/events/stream — the workspace's events as SSE (Last-Event-ID resumes; ?server=&call=&type=)
import { eventStreamResponse } from "@/lib/events/stream-request";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) =>
  eventStreamResponse({ req, db, tenantId: tenant.id }),
);
