// GET /api/v1/workspaces — the caller's workspaces and roles
// POST /api/v1/workspaces — a new workspace `{name}` with the signed-in person as its admin (the
// instance policy says who may: instance owners only by default)
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { createWorkspaceAs, listWorkspacesOf } from "@/lib/tenancy/workspaces";

export const dynamic = "force-dynamic";

export const GET = apiRoute("read", async ({ db, actor }) => ({
  workspaces: await listWorkspacesOf(db, actor),
}));

export const POST = apiRoute("read", async ({ req, db, actor }) => {
  const workspace = await createWorkspaceAs(db, { actor, input: await readJsonBody(req) });
  return Response.json({ workspace }, { status: 201 });
});
