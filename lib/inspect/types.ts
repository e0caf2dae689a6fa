/** What lib/inspect offers the browser: types only. */

/** Suggestions for one argument; isOffered is false when the server declares no completions. */
export type CompletionDto = { values: string[]; hasMore: boolean; isOffered: boolean };
