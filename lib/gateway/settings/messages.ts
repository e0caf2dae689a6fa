/** Said on save (the error) and in Settings → Gateway (the notice): one wording, importable by both. */
export const HELD_ELSEWHERE =
  "Another workspace of this Switchboard already maps requests without a key to one of its principals. " +
  "Such a request names no workspace, so only one workspace can hold the mapping: turn it off there first.";
