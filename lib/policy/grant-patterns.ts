/**
 * Grant patterns as a pure rule: which tools a pattern covers, over gateway names. Deny by default:
 * a principal with no matching pattern may call nothing. Server names are `[a-z0-9-]` (no `_`), so
 * the first `__` of a gateway name always ends the server part and `github__*` can never match a
 * tool of a server called `github-extra`. The server enforces with it (lib/policy/grants.ts adds the
 * zod schemas); the dashboard shows with it what a pattern covers.
 */

export const GRANT_ALL = "*";
const SERVER = "[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?";
const TOOL = "[A-Za-z0-9_.-]{1,128}";
export const grantPatternRegex = new RegExp(`^(?:\\*|${SERVER}__\\*|${SERVER}__${TOOL})$`);

export function isValidGrantPattern(pattern: string): boolean {
  return grantPatternRegex.test(pattern);
}

/** Whether one pattern covers a gateway name (exact, the whole server, or everything). */
export function grantMatches(pattern: string, gatewayName: string): boolean {
  if (pattern === GRANT_ALL) return true;
  if (pattern.endsWith("__*")) return gatewayName.startsWith(pattern.slice(0, -1));
  return pattern === gatewayName;
}

/** The first pattern that covers the name, or undefined: not granted. */
export function findGrant(patterns: readonly string[], gatewayName: string): string | undefined {
  return patterns.find((pattern) => grantMatches(pattern, gatewayName));
}

/** The pattern that grants a whole server: its every tool, and its resources and prompts. */
export const wholeServerPattern = (serverName: string) => `${serverName}__*`;

/**
 * Whether the patterns cover a server's resources, resource templates and prompts: only a grant of
 * the whole server (`<server>__*`) or of everything (`*`) does. A grant of single tools does not —
 * a resource or prompt can hold anything the server knows, which no single tool's grant implies.
 */
export function coversServerCatalog(patterns: readonly string[], serverName: string): boolean {
  return patterns.some((pattern) => pattern === GRANT_ALL || pattern === wholeServerPattern(serverName));
}

/** Whether the patterns name anything of the server (a tool of it, at least): it knows the server. */
export function grantsAnyOfServer(patterns: readonly string[], serverName: string): boolean {
  return patterns.some((pattern) => pattern === GRANT_ALL || pattern.startsWith(`${serverName}__`));
}
