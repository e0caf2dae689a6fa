import { z } from "zod";
import { grantPatternRegex } from "./grant-patterns";

/** The zod side of grants (lib/policy/grant-patterns.ts holds the rule): what the API accepts. */

export const grantPatternSchema = z.string().regex(grantPatternRegex, {
  error: "A grant is `*`, `<server>__*` or `<server>__<tool>` (server names are lowercase, e.g. github__*).",
});

export const replaceGrantsSchema = z.strictObject({
  patterns: z
    .array(grantPatternSchema, { error: 'Send {"patterns": ["server__tool", "server__*", "*"]}.' })
    .max(500, { error: "At most 500 patterns; use `<server>__*` to grant a whole server." })
    .transform((patterns) => [...new Set(patterns)].sort()),
});
export type ReplaceGrantsInput = z.infer<typeof replaceGrantsSchema>;
