// GET · PUT /api/v1/instance/policy — what any workspace's servers may ever do (instance owners);
// PUT ?disableAffected=true disables the servers a narrower policy refuses instead of answering 409

import { ownerRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/read-json";
import { getInstancePolicy } from "@/lib/policy/instance-policy-store";
import { updateInstancePolicy } from "@/lib/servers/policy-changes";
import { readDisableAffected } from "@/lib/servers/policy-sweep";

export const dynamic = "force-dynamic";

export const GET = ownerRoute(async ({ db }) => ({ policy: await getInstancePolicy(db) }));

export const PUT = ownerRoute(async ({ req, db, authority }) =>
  updateInstancePolicy(db, {
    input: await readJsonBody(req),
    authority,
    disableAffected: readDisableAffected(req),
  }),
);
