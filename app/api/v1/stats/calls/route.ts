// GET /api/v1/stats/calls — call rates, error rates, p50/p95 latency and the busiest agents over a recent window
import { getCallStats } from "@/lib/calls/call-stats";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) =>
  getCallStats(db, { tenantId: tenant.id, query: Object.fromEntries(new URL(req.url).searchParams) }),
);
