// GET|POST /oauth/no-authorization-server — where next.config.ts rewrites the OAuth discovery and
// registration paths MCP clients probe after a 401 (/.well-known/oauth-protected-resource…,
// /.well-known/oauth-authorization-server…, /.well-known/openid-configuration…, /register): a JSON
// 404 with a message the client prints, instead of the HTML "page not found".
import { refuseOAuthProbe } from "@/lib/gateway/oauth-probe";
import { publicRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

const refuse = publicRoute(async ({ db, req }) => {
  throw await refuseOAuthProbe(db, req.headers);
});

export const GET = refuse;
export const POST = refuse;
