// GET /api/v1/secrets — names and times of the workspace's secrets (never values)
import { apiRoute } from "@/lib/http/api-route";
import { listSecrets } from "@/lib/secrets/secrets";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, tenant }) => ({
  secrets: await listSecrets(db, { tenantId: tenant.id }),
}));
