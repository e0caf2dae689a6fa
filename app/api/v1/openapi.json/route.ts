// GET /api/v1/openapi.json — this API's OpenAPI 3.1 document, generated from its zod schemas (no auth)
import { publicRoute } from "@/lib/http/api-route";
import { getOpenApiDocument } from "@/lib/openapi/document";

export const dynamic = "force-dynamic";

export const GET = publicRoute(async () => getOpenApiDocument());
