import { describe, expect, it } from "vitest";
import { connectAction, describeProblem, describeStep } from "@/components/servers/detail/oauth-labels";
import { initialState, toConfig } from "@/components/servers/form/form-state";
import type { ServerDto } from "@/lib/servers/types";

const httpServer = (auth: ServerDto["auth"]): ServerDto => ({
  id: "s1",
  name: "linear",
  displayName: null,
  description: null,
  transport: "streamable-http",
  target: "https://mcp.linear.app/mcp",
  command: null,
  programPath: null,
  launchApprovedByOwner: false,
  args: [],
  cwd: null,
  env: {},
  url: "https://mcp.linear.app/mcp",
  headers: {},
  auth,
  enabled: true,
  connectTimeoutMs: 10_000,
  callTimeoutMs: 30_000,
  healthIntervalSeconds: 60,
  resourceReadsNeedApproval: false,
  status: "needs-authorization",
  lastError: null,
  replicas: [],
  replicaSummary: { ready: 0, of: 0 },
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

describe("the server form's OAuth authentication", () => {
  it("round-trips an existing OAuth auth: the edit form saves what it showed", () => {
    const server = httpServer({
      type: "oauth",
      clientId: "switchboard-prod",
      clientSecret: { secret: "linear-client-secret", isSet: true },
      scopes: ["read", "write"],
    });
    const state = initialState(server);
    expect(state.authType).toBe("oauth");
    expect(state.oauthScopes).toBe("read write");
    expect(toConfig(state).auth).toEqual({
      type: "oauth",
      clientId: "switchboard-prod",
      clientSecret: { secret: "linear-client-secret" },
      scopes: ["read", "write"],
    });
  });

  it("leaves out what was left empty, so Switchboard registers itself", () => {
    const state = { ...initialState(httpServer({ type: "none" })), authType: "oauth" as const };
    expect(toConfig({ ...state, oauthScopes: "  " }).auth).toEqual({ type: "oauth" });
  });

  it("splits scopes on any whitespace, as OAuth writes them", () => {
    const state = { ...initialState(httpServer({ type: "oauth" })), oauthScopes: " repo\tread:org  " };
    expect(toConfig(state).auth).toEqual({ type: "oauth", scopes: ["repo", "read:org"] });
  });

  it("sends no credential with OAuth even when one was typed before switching", () => {
    const state = {
      ...initialState(httpServer({ type: "none" })),
      authValue: "token",
      authType: "oauth" as const,
    };
    expect(JSON.stringify(toConfig(state).auth)).not.toContain("token");
  });
});

describe("the connect button's offer", () => {
  it.each([
    [undefined, { label: "Connect" }],
    [{ status: "not_connected", neededScope: null }, { label: "Connect" }],
    [{ status: "connected", neededScope: null }, { label: "Sign in again" }],
    [{ status: "needs_authorization", neededScope: null }, { label: "Sign in again" }],
    [
      { status: "needs_authorization", neededScope: "repo" },
      { label: "Grant scope repo", scope: "repo" },
    ],
  ] as const)("%j → %j", (oauth, expected) => {
    expect(connectAction(oauth)).toEqual(expected);
  });

  it("names the failed step and its HTTP status", () => {
    expect(describeProblem({ step: "refresh", status: 400 })).toBe("Renewing the token failed (HTTP 400)");
    expect(describeProblem({ step: "metadata", status: null })).toBe(
      "Discovering the authorization server failed",
    );
    expect(describeStep("something-new")).toBe("something-new");
  });
});
