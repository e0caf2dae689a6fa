// GET /api/v1/audit — the workspace's audit trail, newest first (?action=&limit=&cursor=; admins)
import { listAuditEntries } from "@/lib/auth/audit-log";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute("manage", async ({ req, db, tenant }) =>
  listAuditEntries(db, { tenantId: tenant.id, query: Object.fromEntries(new URL(req.url).searchParams) }),
);
