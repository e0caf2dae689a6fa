// GET /api/v1/approvals?status=pending|decided — the approval queue, or the decided history
import { listApprovals } from "@/lib/approvals/list-approvals";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ req, db, tenant }) =>
  listApprovals(db, { tenantId: tenant.id, query: Object.fromEntries(new URL(req.url).searchParams) }),
);
