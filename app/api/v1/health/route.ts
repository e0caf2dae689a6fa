// GET /api/v1/health — liveness: the process is up and answers (no auth; never asks the database)
import { readEnv } from "@/lib/env";
import { replicaId } from "@/lib/runtime/replica";
import packageJson from "@/package.json";

export const dynamic = "force-dynamic";

/**
 * A process whose database is down is still alive: restarting it would not bring the database
 * back, and a liveness probe that failed would have Kubernetes restart it in a loop. Whether it
 * can serve is the readiness probe's question (/api/v1/health/ready).
 */
export function GET(): Response {
  const database = readEnv().databaseUrl ? "postgres" : "pglite";
  return Response.json({ status: "ok", database, version: packageJson.version, replica: replicaId() });
}
