import { and, eq, or, type SQL, sql } from "drizzle-orm";
import { type CallStatus, callStatuses, calls } from "@/db/schema";

/**
 * How a call ended, as people read it. The stored state machine stays as it is (a tool that answered
 * `isError: true` did run to the end: its status is `succeeded`); the outcome splits that status in
 * two, so "succeeded" means the tool ran *and* reported no error everywhere it is shown or filtered:
 * the API's `outcome` field, `?status=`, the dashboard's badges and the CLI.
 */

export const callOutcomes = [...callStatuses, "tool_error"] as const;
export type CallOutcome = (typeof callOutcomes)[number];

export function outcomeOf(status: CallStatus, isError: boolean | null): CallOutcome {
  return status === "succeeded" && isError === true ? "tool_error" : status;
}

// `isError` lives in the stored result (jsonb); a boolean reads back from ->> as 'true'. A missing
// result or flag reads as '' so that "not a tool error" holds for it (NULL would drop the row).
const isErrorText = sql`coalesce(${calls.result} ->> 'isError', '')`;

/** The rows of these outcomes: `succeeded` without the tool errors, `tool_error` only them. */
export function outcomeCondition(outcomes: readonly CallOutcome[]): SQL | undefined {
  return or(
    ...outcomes.map((outcome) => {
      if (outcome === "tool_error") return and(eq(calls.status, "succeeded"), sql`${isErrorText} = 'true'`);
      if (outcome === "succeeded") return and(eq(calls.status, "succeeded"), sql`${isErrorText} <> 'true'`);
      return eq(calls.status, outcome);
    }),
  );
}
