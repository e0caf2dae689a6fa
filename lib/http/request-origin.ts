import { readEnv } from "@/lib/env";

/**
 * The origin a request reached Switchboard at, for absolute URLs shown back to that caller. The
 * Host header is safe to echo: proxy.ts has already refused hosts not in the allowed list (DNS
 * rebinding). The scheme comes from X-Forwarded-Proto, set by a TLS-terminating proxy or by
 * `next start` itself. Without a Host (tests, scripts) the configured public URL stands in.
 */
export function requestOrigin(headers: Headers): string {
  const host = headers.get("host");
  if (!host) return readEnv().publicUrl;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return `${proto === "https" ? "https" : "http"}://${host}`;
}
