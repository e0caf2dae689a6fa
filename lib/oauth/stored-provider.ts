import "server-only";
import {
  discoverAuthorizationServerMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  refreshAuthorization,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { StoredAuth } from "@/db/schema";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { ValueResolver } from "@/lib/upstream/connection-config";
import { AuthorizationRequiredError, type UpstreamAuth } from "@/lib/upstream/upstream-auth";
import { oauthFetch } from "./oauth-fetch";
import {
  clearClientInformation,
  dropTokens,
  type LoadedOAuth,
  loadOAuth,
  loadOAuthForUpdate,
  type OAuthServerRef,
  recordProblem,
  type StoredTokens,
  saveClientInformation,
  saveDiscovery,
  saveTokens,
} from "./oauth-store";
import type { OAuthProblem } from "./types";

/**
 * The SDK's OAuthClientProvider (@modelcontextprotocol/sdk/client/auth.js), backed by Switchboard's
 * sealed storage. The SDK's `auth()` does discovery, registration, PKCE and the code exchange; two
 * things are ours and said here:
 *
 * - Refresh. The pooled connection's provider never hands the SDK a refresh token. Every process
 *   of a cluster holds the same tokens, and an authorization server that rotates refresh tokens
 *   treats a second use of one as theft and ends the grant; so a refresh happens only here, one at
 *   a time (the row locked on PostgreSQL, single flight within a process), and a process that finds
 *   the tokens already renewed by another uses those. It happens shortly before expiry and once on
 *   a 401 (the connection's fetch, lib/upstream/upstream-auth.ts).
 * - No browser. The pool cannot send anyone to a login page: where the SDK would redirect, the
 *   connection's provider throws AuthorizationRequiredError and the server waits for an admin's Connect.
 */

export type OAuthServer = OAuthServerRef & {
  name: string;
  url: string;
  auth: Extract<StoredAuth, { type: "oauth" }>;
};

export type ProviderOptions = {
  publicUrl: string;
  now: () => Date;
  resolveValue: ValueResolver;
  /** PostgreSQL: several processes may refresh; lock the row. PGlite: this process is the only one. */
  lockAcrossProcesses: boolean;
};

/** Renew this long before the access token expires — or a third of its life, for short-lived ones. */
const REFRESH_MARGIN_MS = 60_000;

export const callbackUrl = (publicUrl: string) => `${publicUrl}/oauth/callback`;
/** SEP-991 client ID metadata document: only an https URL qualifies as a client id. */
export const clientMetadataDocumentUrl = (publicUrl: string) =>
  publicUrl.startsWith("https://") ? `${publicUrl}/oauth/client-metadata.json` : undefined;

/** What Switchboard says about itself to an authorization server (registration and metadata document). */
export function switchboardClientMetadata(
  publicUrl: string,
  scopes?: readonly string[],
): OAuthClientMetadata {
  return {
    client_name: "Switchboard",
    client_uri: publicUrl,
    redirect_uris: [callbackUrl(publicUrl)],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(scopes && scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
  };
}

abstract class StoredProvider implements OAuthClientProvider {
  saveClientInformation?: (information: OAuthClientInformationMixed) => Promise<void>;

  constructor(
    protected readonly db: Database,
    protected readonly server: OAuthServer,
    protected readonly options: ProviderOptions,
  ) {
    // Only a client Switchboard registered itself can register again; one an admin entered cannot.
    if (!server.auth.clientId) {
      this.saveClientInformation = async (information) => {
        const viaDocument = information.client_id === this.clientMetadataUrl;
        await saveClientInformation(db, server, information, viaDocument ? "metadata_document" : "dynamic");
      };
    }
  }

  get redirectUrl(): string {
    return callbackUrl(this.options.publicUrl);
  }

  get clientMetadataUrl(): string | undefined {
    return clientMetadataDocumentUrl(this.options.publicUrl);
  }

  get clientMetadata(): OAuthClientMetadata {
    return switchboardClientMetadata(this.options.publicUrl, this.server.auth.scopes);
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret } = this.server.auth;
    if (clientId) {
      const secret = clientSecret
        ? await this.options.resolveValue(clientSecret, { tenantId: this.server.tenantId })
        : undefined;
      if (clientSecret && secret === undefined)
        throw new AppError(
          "validation",
          `The client secret of "${this.server.name}" (secret ${"secret" in clientSecret ? clientSecret.secret : "?"}) is not set.`,
        );
      return { client_id: clientId, ...(secret ? { client_secret: secret } : {}) };
    }
    return (await loadOAuth(this.db, this.server)).clientInformation;
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const { row } = await loadOAuth(this.db, this.server);
    return (row?.discovery as OAuthDiscoveryState | null) ?? undefined;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await saveDiscovery(this.db, this.server, JSON.parse(JSON.stringify(state)));
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if ((scope === "all" || scope === "client") && !this.server.auth.clientId)
      await clearClientInformation(this.db, this.server);
    if (scope === "all" || scope === "discovery") await saveDiscovery(this.db, this.server, null);
  }

  abstract tokens(): Promise<OAuthTokens | undefined>;
  abstract saveTokens(tokens: OAuthTokens): Promise<void>;
  abstract redirectToAuthorization(authorizationUrl: URL): Promise<void>;
  abstract saveCodeVerifier(codeVerifier: string): Promise<void>;
  abstract codeVerifier(): Promise<string>;
}

/**
 * For an admin's Connect and its callback: starts from no tokens (a Connect always asks the person
 * anew, with the scopes asked for), captures where to send the browser and the PKCE verifier.
 */
export class AuthorizingProvider extends StoredProvider {
  authorizationUrl: URL | undefined;
  private verifier: string | undefined;

  constructor(
    db: Database,
    server: OAuthServer,
    options: ProviderOptions,
    private readonly flow: { state: string; codeVerifier?: string; connectedBy: string },
  ) {
    super(db, server, options);
    this.verifier = flow.codeVerifier;
  }

  state(): string {
    return this.flow.state;
  }

  async tokens(): Promise<undefined> {
    return undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await saveTokens(this.db, this.server, tokens, {
      now: this.options.now(),
      connectedBy: this.flow.connectedBy,
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    this.verifier = codeVerifier;
  }

  async codeVerifier(): Promise<string> {
    if (!this.verifier) throw new AppError("validation", "This authorization has no PKCE verifier.");
    return this.verifier;
  }
}

/** For the pooled connection: the stored tokens, renewed here, never a browser. */
export class ConnectionProvider extends StoredProvider implements UpstreamAuth {
  readonly provider: OAuthClientProvider = this;
  private loaded: LoadedOAuth | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(
    db: Database,
    server: OAuthServer,
    options: ProviderOptions,
    private readonly onProblem: (problem: OAuthProblem, needsAuthorization: boolean) => void,
  ) {
    super(db, server, options);
  }

  /** Nothing to connect with: the connection waits for a Connect, saying why. */
  async ensureTokens(): Promise<void> {
    this.loaded = await loadOAuth(this.db, this.server);
    if (this.loaded.tokens) return;
    const problem = this.loaded.row?.problem as OAuthProblem | null | undefined;
    throw new AuthorizationRequiredError(
      this.server.name,
      problem ? problem.message : "Switchboard holds no token for it yet.",
    );
  }

  /** The access token the connection's requests carry; renewed first when it is about to expire. */
  async tokens(): Promise<OAuthTokens | undefined> {
    this.loaded ??= await loadOAuth(this.db, this.server);
    if (this.expiresSoon(this.loaded)) await this.refresh(this.loaded.row?.tokenVersion ?? 0);
    const tokens = this.loaded.tokens;
    if (!tokens) return undefined;
    // No refresh_token: the SDK must not refresh on its own (see the top of this file).
    return { access_token: tokens.access_token, token_type: tokens.token_type };
  }

  /**
   * The server refused `rejected` (401): renew once, unless another process already did, and
   * say whether a different token is now at hand.
   */
  async renewAfterRejection(rejected: string): Promise<string | undefined> {
    this.loaded = await loadOAuth(this.db, this.server);
    if (this.loaded.tokens && this.loaded.tokens.access_token !== rejected)
      return this.loaded.tokens.access_token;
    await this.refresh(this.loaded.row?.tokenVersion ?? 0);
    const now = this.loaded.tokens?.access_token;
    return now && now !== rejected ? now : undefined;
  }

  /** The server asked for more (403 insufficient_scope): kept so Connect asks for it. */
  async needScope(scope: string | undefined, reason: string): Promise<void> {
    const problem: OAuthProblem = {
      step: "authorization",
      status: 403,
      message: `The server needs more access${scope ? ` (scope "${scope}")` : ""}: ${reason}`,
      at: this.options.now().toISOString(),
    };
    await recordProblem(this.db, this.server, problem, scope ? { neededScope: scope } : {});
    this.onProblem(problem, true);
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await saveTokens(this.db, this.server, tokens, { now: this.options.now() });
    this.loaded = undefined;
  }

  async redirectToAuthorization(): Promise<void> {
    const reason = this.loaded?.row?.problem
      ? (this.loaded.row.problem as OAuthProblem).message
      : "the server refused the stored token.";
    throw new AuthorizationRequiredError(this.server.name, reason);
  }

  async saveCodeVerifier(): Promise<void> {}

  async codeVerifier(): Promise<string> {
    throw new AuthorizationRequiredError(this.server.name, "no authorization is under way.");
  }

  private expiresSoon(loaded: LoadedOAuth): boolean {
    const at = loaded.row?.accessTokenExpiresAt;
    if (!loaded.tokens || !at) return false;
    const lifetimeMs = (loaded.tokens.expires_in ?? Number.POSITIVE_INFINITY) * 1000;
    return at.getTime() - this.options.now().getTime() < Math.min(REFRESH_MARGIN_MS, lifetimeMs / 3);
  }

  /** One refresh at a time in this process; across processes, the row is locked (PostgreSQL). */
  private refresh(fromVersion: number): Promise<void> {
    this.refreshing ??= (
      this.options.lockAcrossProcesses
        ? this.db.transaction((tx) => this.refreshWith(tx, fromVersion, loadOAuthForUpdate))
        : this.refreshWith(this.db, fromVersion, loadOAuth)
    ).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refreshWith(
    db: Queryable,
    fromVersion: number,
    load: (db: Queryable, server: OAuthServerRef) => Promise<LoadedOAuth>,
  ): Promise<void> {
    const fresh = await load(db, this.server);
    this.loaded = fresh;
    const tokens = fresh.tokens;
    // Gone (disconnected), or renewed by another process while we waited for the lock.
    if (!tokens || (fresh.row?.tokenVersion !== fromVersion && !this.expiresSoon(fresh))) return;
    const refreshToken = tokens.refresh_token;
    if (!refreshToken) {
      await this.giveUp(db, fresh, {
        step: "refresh",
        status: null,
        message: "The access token expired and the server issued no refresh token.",
        at: this.options.now().toISOString(),
      });
      return;
    }
    const traced = await oauthFetch(this.db, this.server.tenantId, this.options.now);
    try {
      const discovery = (fresh.row?.discovery as OAuthDiscoveryState | null) ?? undefined;
      const issuer = discovery?.authorizationServerUrl ?? fresh.row?.issuer ?? tokens.issuer;
      if (!issuer) throw new Error("Nothing is known about the authorization server; connect again.");
      const metadata =
        discovery?.authorizationServerMetadata ??
        (await discoverAuthorizationServerMetadata(issuer, { fetchFn: traced.fetch }));
      const clientInformation = await this.clientInformation();
      if (!clientInformation) throw new Error("Switchboard's client registration is gone; connect again.");
      const renewed = await refreshAuthorization(issuer, {
        metadata,
        clientInformation,
        refreshToken,
        resource: discovery?.resourceMetadata?.resource
          ? new URL(discovery.resourceMetadata.resource)
          : undefined,
        fetchFn: traced.fetch,
      });
      const saved: StoredTokens = { ...renewed, issuer: tokens.issuer ?? issuer };
      await saveTokens(db, this.server, saved, { now: this.options.now() });
      this.loaded = await load(db, this.server);
    } catch (error) {
      const problem = traced.describe(error, "refresh", [refreshToken, tokens.access_token]);
      const refused = isRefusal(error);
      if (refused) await this.giveUp(db, fresh, problem);
      else {
        await recordProblem(db, this.server, problem);
        this.onProblem(problem, false);
      }
    } finally {
      await traced.close();
    }
  }

  private async giveUp(db: Queryable, fresh: LoadedOAuth, problem: OAuthProblem): Promise<void> {
    await dropTokens(db, this.server, { ifVersion: fresh.row?.tokenVersion, problem });
    this.loaded = await loadOAuth(db, this.server);
    this.onProblem(problem, true);
  }
}

/**
 * The authorization server said no (invalid_grant: revoked or expired; invalid_client…): a person
 * must authorize again. A server error or an outage leaves the tokens for the next try. By the
 * OAuth error code, not the class: the SDK's module may be loaded twice (ESM and CommonJS).
 */
function isRefusal(error: unknown): boolean {
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  return typeof code === "string" && code !== "server_error" && code !== "temporarily_unavailable";
}
