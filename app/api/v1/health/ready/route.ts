// GET /api/v1/health/ready — readiness: database, event relay and connection pool all up (no auth)
import { errorResponse } from "@/lib/http/api-route";
import { checkReadiness } from "@/lib/runtime/readiness";
import { replicaId } from "@/lib/runtime/replica";
import packageJson from "@/package.json";

export const dynamic = "force-dynamic";

/** 200 when this process can serve; 503 while it starts or a dependency is down, naming which and why. */
export async function GET(): Promise<Response> {
  try {
    const readiness = await checkReadiness();
    const status = readiness.status === "ready" ? 200 : 503;
    return Response.json({ ...readiness, version: packageJson.version, replica: replicaId() }, { status });
  } catch (error) {
    return errorResponse(error);
  }
}
