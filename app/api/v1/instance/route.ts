// GET /api/v1/instance — the instance policy, its owners and what a stdio server can reach (instance owners)
import { getInstanceOverview } from "@/lib/auth/instance-overview";
import { ownerRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

export const GET = ownerRoute(async ({ db }) => getInstanceOverview(db));
