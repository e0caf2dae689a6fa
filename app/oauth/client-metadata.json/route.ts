// GET /oauth/client-metadata.json — Switchboard's OAuth client ID metadata document (SEP-991): where
// an authorization server that supports it learns who this client is, instead of a registration.
import { readEnv } from "@/lib/env";
import { switchboardClientMetadata } from "@/lib/oauth/stored-provider";

export const dynamic = "force-dynamic";

export function GET(): Response {
  const { publicUrl } = readEnv();
  return Response.json(
    { client_id: `${publicUrl}/oauth/client-metadata.json`, ...switchboardClientMetadata(publicUrl) },
    { headers: { "Cache-Control": "public, max-age=3600" } },
  );
}
