// GET /metrics — Prometheus text format (lib/observability); off unless SWITCHBOARD_METRICS=on
import { errorResponse } from "@/lib/http/api-route";
import { metricsResponse } from "@/lib/observability/metrics-endpoint";

export const dynamic = "force-dynamic";

// Not apiRoute/publicRoute: those open the database first, and a token scrape must not need it.
export async function GET(req: Request): Promise<Response> {
  try {
    return await metricsResponse(req);
  } catch (error) {
    return errorResponse(error);
  }
}
