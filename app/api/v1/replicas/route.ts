// GET /api/v1/replicas — the Switchboard processes sharing this database, live or gone silent (members)
import { apiRoute } from "@/lib/http/api-route";
import { listReplicas } from "@/lib/runtime/replica-list";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db }) => listReplicas(db));
