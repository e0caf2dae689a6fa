/** What the dashboard, the CLI and the REST API see of a server's OAuth standing: no token, no code. */

export type OAuthStep = "metadata" | "registration" | "authorization" | "token" | "refresh" | "revocation";

export type RegistrationKind = "metadata_document" | "dynamic" | "manual";

export type OAuthProblem = { step: OAuthStep; status: number | null; message: string; at: string };

export type OAuthStatus = {
  status: "not_connected" | "connected" | "needs_authorization";
  registration: RegistrationKind | null;
  issuer: string | null;
  scopes: string[];
  /** A scope the server asked for (403 insufficient_scope): Connect again asks for it. */
  neededScope: string | null;
  expiresAt: string | null;
  connectedAt: string | null;
  connectedBy: string | null;
  problem: OAuthProblem | null;
};
