// GET /api/v1/health — liveness: is the process up and its database reachable (no auth)
import { sql } from "drizzle-orm";
import { publicRoute } from "@/lib/http/api-route";
import packageJson from "@/package.json";

export const dynamic = "force-dynamic";

export const GET = publicRoute(async ({ db, driver }) => {
  await db.execute(sql`select 1`);
  return { status: "ok", database: driver, version: packageJson.version };
});
