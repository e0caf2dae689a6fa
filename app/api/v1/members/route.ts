// GET /api/v1/members — the workspace's people and their roles
import { listMembers } from "@/lib/auth/members";
import { apiRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  members: await listMembers(db, { tenantId: tenant.id }),
}));
