"use client";

import { parseAsString, useQueryStates } from "nuqs";
import { describeStep } from "./oauth-labels";

const outcomeParams = { oauth: parseAsString, step: parseAsString };

/**
 * What came of a sign-in: /oauth/callback sends the browser back here with `?oauth=connected` or
 * `?oauth=failed&step=…`. Dismissing it drops the parameters, so a reload does not show it again.
 */
export function OAuthOutcomeNotice() {
  const [{ oauth, step }, setParams] = useQueryStates(outcomeParams);
  if (oauth !== "connected" && oauth !== "failed") return null;
  const isConnected = oauth === "connected";
  const dismiss = () => void setParams({ oauth: null, step: null });

  return (
    <div
      role={isConnected ? "status" : "alert"}
      data-testid="oauth-outcome"
      className={`mb-6 flex items-start justify-between gap-3 rounded-md border px-4 py-3 text-sm ${
        isConnected
          ? "border-emerald-200 bg-emerald-50 text-emerald-900"
          : "border-red-200 bg-red-50 text-red-800"
      }`}
    >
      <div>
        <p className="font-medium">
          {isConnected
            ? "Connected: Switchboard signed in to the server."
            : `Authorization failed${step ? `: ${describeStep(step).toLowerCase()} did not succeed` : ""}.`}
        </p>
        <p className="mt-0.5 text-xs">
          {isConnected
            ? "Its tokens are stored encrypted and renewed automatically."
            : "The Authorization panel below shows what the server answered. Try Connect again."}
        </p>
      </div>
      <button
        type="button"
        onClick={dismiss}
        aria-label="Dismiss"
        className="rounded px-1.5 text-lg leading-none opacity-70 hover:opacity-100 focus-visible:outline focus-visible:outline-2"
      >
        ×
      </button>
    </div>
  );
}
