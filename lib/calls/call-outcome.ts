import { and, eq, or, type SQL, sql } from "drizzle-orm";
import { type CallStatus, callStatuses, calls } from "@/db/schema";

/**
 * How a call ended, as people read it. The stored state machine stays as it is (a tool that answered
 * `isError: true` did run to the end: its status is `succeeded`); the outcome splits that status in
 * two, so "succeeded" means the tool ran *and* reported no error everywhere it is shown or filtered:
 * the API's `outcome` field, `?status=`, the dashboard's badges and the CLI.
 */

export const callOutcomes = [...callStatuses, "tool_error", "rate_limited"] as const;
export type CallOutcome = (typeof callOutcomes)[number];

/** A refusal over a limit (lib/limits) is stored `denied` with this error code: its own outcome. */
export const RATE_LIMITED_CODE = "rate_limited";

export function outcomeOf(
  status: CallStatus,
  isError: boolean | null,
  errorCode?: string | null,
): CallOutcome {
  if (status === "denied" && errorCode === RATE_LIMITED_CODE) return "rate_limited";
  return status === "succeeded" && isError === true ? "tool_error" : status;
}

// `isError` lives in the stored result (jsonb); a boolean reads back from ->> as 'true'. A missing
// result or flag reads as '' so that "not a tool error" holds for it (NULL would drop the row).
const isErrorText = sql`coalesce(${calls.result} ->> 'isError', '')`;

const isRateLimited = sql`coalesce(${calls.errorCode}, '') = ${RATE_LIMITED_CODE}`;

/** The rows of these outcomes: `succeeded` without the tool errors, `tool_error` only them. */
export function outcomeCondition(outcomes: readonly CallOutcome[]): SQL | undefined {
  return or(
    ...outcomes.map((outcome) => {
      if (outcome === "tool_error") return and(eq(calls.status, "succeeded"), sql`${isErrorText} = 'true'`);
      if (outcome === "succeeded") return and(eq(calls.status, "succeeded"), sql`${isErrorText} <> 'true'`);
      if (outcome === "rate_limited") return and(eq(calls.status, "denied"), sql`${isRateLimited}`);
      if (outcome === "denied") return and(eq(calls.status, "denied"), sql`not ${isRateLimited}`);
      return eq(calls.status, outcome);
    }),
  );
}
