import { z } from "zod";

/**
 * Grants: which tools a principal may call, as patterns over gateway names. Deny by default: a
 * principal with no matching pattern may call nothing. Server names are `[a-z0-9-]` (no `_`), so
 * the first `__` of a gateway name always ends the server part and `github__*` can never match a
 * tool of a server called `github-extra`.
 */

export const GRANT_ALL = "*";
const SERVER = "[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?";
const TOOL = "[A-Za-z0-9_.-]{1,128}";
const patternRegex = new RegExp(`^(?:\\*|${SERVER}__\\*|${SERVER}__${TOOL})$`);

export const grantPatternSchema = z.string().regex(patternRegex, {
  error: "A grant is `*`, `<server>__*` or `<server>__<tool>` (server names are lowercase, e.g. github__*).",
});

export const replaceGrantsSchema = z.strictObject({
  patterns: z
    .array(grantPatternSchema, { error: 'Send {"patterns": ["server__tool", "server__*", "*"]}.' })
    .max(500, { error: "At most 500 patterns; use `<server>__*` to grant a whole server." })
    .transform((patterns) => [...new Set(patterns)].sort()),
});
export type ReplaceGrantsInput = z.infer<typeof replaceGrantsSchema>;

export function isValidGrantPattern(pattern: string): boolean {
  return patternRegex.test(pattern);
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
