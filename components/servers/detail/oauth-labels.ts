import type { Tone } from "@/components/ui/badge";
import type { OAuthStatusDto } from "../server-queries";

/** The words the Authorization panel, the banner and the outcome notice share. Pure, so tested as a table. */

type Problem = NonNullable<OAuthStatusDto["problem"]>;

export const oauthStatusBadges: Record<OAuthStatusDto["status"], { tone: Tone; label: string }> = {
  connected: { tone: "green", label: "Connected" },
  needs_authorization: { tone: "amber", label: "Needs authorization" },
  not_connected: { tone: "slate", label: "Not connected" },
};

export const registrationLabels: Record<NonNullable<OAuthStatusDto["registration"]>, string> = {
  metadata_document: "Client ID metadata document",
  dynamic: "Dynamic registration",
  manual: "Client ID entered by an admin",
};

const stepLabels: Record<Problem["step"], string> = {
  metadata: "Discovering the authorization server",
  registration: "Registering Switchboard as a client",
  authorization: "Signing in and consenting",
  token: "Exchanging the code for tokens",
  refresh: "Renewing the token",
  revocation: "Revoking the tokens",
};

/** A step's name as the callback's `?step=` or a problem says it; an unknown step is shown as sent. */
export function describeStep(step: string): string {
  return stepLabels[step as Problem["step"]] ?? step;
}

/** "Renewing the token failed (HTTP 400)". */
export function describeProblem(problem: Pick<Problem, "step" | "status">): string {
  return `${describeStep(problem.step)} failed${problem.status !== null ? ` (HTTP ${problem.status})` : ""}`;
}

/** What the connect button offers: a missing scope first, then a fresh sign-in, then the first one. */
export function connectAction(oauth: Pick<OAuthStatusDto, "status" | "neededScope"> | undefined): {
  label: string;
  scope?: string;
} {
  if (oauth?.neededScope) return { label: `Grant scope ${oauth.neededScope}`, scope: oauth.neededScope };
  // Not "Reconnect": the page's operations have one that only reopens the connection.
  if (oauth && oauth.status !== "not_connected") return { label: "Sign in again" };
  return { label: "Connect" };
}
