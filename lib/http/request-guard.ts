import { readEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

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

/**
 * Checks every request before it reaches a page, action or route: the Host header (DNS
 * rebinding), the Origin of cross-site requests (CSRF), and credentials in the query string.
 * Returns the error to answer with, or undefined.
 */
export function checkRequest(request: { headers: Headers; url: string }): AppError | undefined {
  const host = request.headers.get("host");
  if (!host || !isAllowedHost(host)) {
    return new AppError(
      "forbidden",
      `Requests for host "${host ?? ""}" are refused. Add it to SWITCHBOARD_ALLOWED_HOSTS if Switchboard should answer it.`,
    );
  }
  const origin = request.headers.get("origin");
  if (origin !== null && !isAllowedOrigin(origin)) {
    return new AppError("forbidden", `Cross-origin requests from ${origin} are refused.`);
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

function isAllowedOrigin(origin: string): boolean {
  try {
    return isAllowedHost(new URL(origin).host);
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage
  }
}
