import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { requestOrigin } from "./request-origin";

/** Query parameters that would put a credential in URLs, logs and browser history. */
const credentialParams = new Set([
  "api_key",
  "apikey",
  "api-key",
  "access_token",
  "token",
  "key",
  "password",
  "secret",
]);

let allowed: Set<string> | undefined;

function isAllowedHost(host: string): boolean {
  allowed ??= new Set(readEnv().allowedHosts);
  const name = host.toLowerCase();
  const withoutPort = name.replace(/:\d+$/, "");
  return allowed.has(name) || allowed.has(withoutPort);
}

/** Methods a browser may send without asking (and without a preflight) that change nothing. */
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Checks every request before it reaches a page, action, route or the gateway: the Host header
 * (DNS rebinding), the Origin (CSRF) and credentials in the query string. Returns the error to
 * answer with, or undefined.
 *
 * The Origin must be Switchboard's own, exactly — scheme, host and port: the public URL, or the
 * origin the request itself reached (its allowed Host). Another port of the same host is another
 * site's page (same-site to the browser, so the session cookie goes along). Scripts and API
 * clients send no Origin and are judged by their key.
 */
export function checkRequest(request: {
  headers: Headers;
  url: string;
  method?: string;
}): AppError | undefined {
  const { headers } = request;
  const host = headers.get("host");
  if (!host || !isAllowedHost(host)) {
    return new AppError(
      "forbidden",
      `Requests for host "${host ?? ""}" are refused. Add it to SWITCHBOARD_ALLOWED_HOSTS if Switchboard should answer it.`,
    );
  }
  const origin = headers.get("origin");
  if (origin !== null && !isOwnOrigin(origin, headers)) {
    return new AppError(
      "forbidden",
      `Cross-origin requests from ${origin} are refused: only Switchboard's own pages (${ownOrigins(headers).join(" or ")}, exact scheme, host and port) may send them.`,
    );
  }
  // A browser that sends no Origin still says where a write comes from.
  const site = headers.get("sec-fetch-site");
  const method = (request.method ?? "GET").toUpperCase();
  if (
    origin === null &&
    site !== null &&
    !safeMethods.has(method) &&
    site !== "same-origin" &&
    site !== "none"
  ) {
    return new AppError(
      "forbidden",
      `Cross-origin requests (${site}) are refused: only Switchboard's own pages may write.`,
    );
  }
  for (const name of new URL(request.url).searchParams.keys()) {
    if (credentialParams.has(name.toLowerCase())) {
      return new AppError(
        "validation",
        `Never put credentials in a URL ("${name}"): send them in the Authorization or X-API-Key header.`,
      );
    }
  }
  return undefined;
}

/** The public URL's origin, and the one this request reached (its Host, already allowed). */
function ownOrigins(headers: Headers): string[] {
  const origins = [new URL(readEnv().publicUrl).origin, new URL(requestOrigin(headers)).origin];
  return [...new Set(origins)];
}

function isOwnOrigin(origin: string, headers: Headers): boolean {
  try {
    // Normalised as the browser would (case, default ports) before an exact comparison.
    return ownOrigins(headers).includes(new URL(origin).origin);
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage
  }
}
