// POST /api/v1/approvals/{id}/deny — deny a pending call ({reason?}, returned to the caller); a second decision is a 409
import { decideRoute } from "../decide-route";

export const dynamic = "force-dynamic";

export const POST = decideRoute("deny");
