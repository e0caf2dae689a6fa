/**
 * Hosted MCP servers known to sign clients in with OAuth (and to refuse anything else without a
 * personal token): an imported entry pointing at one, with no Authorization header, is registered
 * with OAuth rather than as an unauthenticated server that would only ever answer 401.
 */
const oauthHosts = new Set([
  "api.githubcopilot.com",
  "mcp.linear.app",
  "mcp.notion.com",
  "mcp.atlassian.com",
  "mcp.sentry.dev",
  "mcp.asana.com",
  "mcp.stripe.com",
]);
/** Cloudflare's servers are one host each under mcp.cloudflare.com (docs., bindings., …). */
const oauthHostSuffixes = [".mcp.cloudflare.com"];

export function isKnownOAuthHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return oauthHosts.has(host) || oauthHostSuffixes.some((suffix) => host.endsWith(suffix));
}
