// GET /metrics — Prometheus text format (lib/observability); off unless SWITCHBOARD_METRICS=on
import { publicRoute } from "@/lib/http/api-route";
import { metricsResponse } from "@/lib/observability/metrics-endpoint";

export const dynamic = "force-dynamic";

// Public as a route: the scrape token is not a Switchboard key, so the endpoint checks it itself.
export const GET = publicRoute(({ db, req }) => metricsResponse(db, req));
