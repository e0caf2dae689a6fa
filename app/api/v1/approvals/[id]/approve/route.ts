// POST /api/v1/approvals/{id}/approve — approve a pending call ({reason?}); a second decision is a 409
import { decideRoute } from "../decide-route";

export const dynamic = "force-dynamic";

export const POST = decideRoute("approve");
