// GET /oauth/callback — where an authorization server sends the operator's browser back with a code
import { getAuth } from "@/lib/auth/better-auth";
import { readEnv } from "@/lib/env";
import { completeAuthorization } from "@/lib/oauth/authorization";
import { getDatabase } from "@/lib/runtime/process-db";

export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const { db } = await getDatabase();
  const session = await getAuth(db)
    .api.getSession({ headers: req.headers })
    .catch(() => null);
  const outcome = await completeAuthorization(db, {
    state: url.searchParams.get("state"),
    code: url.searchParams.get("code"),
    error: url.searchParams.get("error"),
    errorDescription: url.searchParams.get("error_description"),
    userId: session?.user.id ?? null,
  });
  const base = readEnv().publicUrl;
  if (outcome.serverName) {
    const query = outcome.ok ? "oauth=connected" : `oauth=failed&step=${outcome.step ?? "authorization"}`;
    // The code stays out of the page's URL, its history and its Referer.
    return Response.redirect(`${base}/servers/${encodeURIComponent(outcome.serverName)}?${query}`, 303);
  }
  return new Response(refusalPage(outcome.message ?? "This authorization cannot be completed.", base), {
    status: 400,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

function refusalPage(message: string, base: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization not completed · Switchboard</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; color: #0f172a">
<h1 style="font-size: 1.25rem">Authorization not completed</h1>
<p>${escapeHtml(message)}</p>
<p>Nothing was changed. <a href="${escapeHtml(base)}/servers">Back to the servers</a></p>
</body></html>`;
}
