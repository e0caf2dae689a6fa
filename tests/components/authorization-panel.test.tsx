import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthorizationPanel } from "@/components/servers/detail/authorization-panel";
import type { OAuthStatusDto } from "@/components/servers/server-queries";

/*
 * The Authorization panel of an OAuth server's page, in a DOM, against a stubbed fetch answering
 * what GET /api/v1/servers/{name}/oauth answers: what an operator reads in each state, and that
 * the connect button asks for the missing scope.
 */

const base: OAuthStatusDto = {
  status: "not_connected",
  registration: null,
  issuer: null,
  scopes: [],
  neededScope: null,
  expiresAt: null,
  connectedAt: null,
  connectedBy: null,
  problem: null,
};

function renderPanel(oauth: OAuthStatusDto, canManage = true) {
  const requests: Array<{ url: string; method: string; body: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({
        url,
        method: init?.method ?? "GET",
        body: init?.body ? JSON.parse(String(init.body)) : null,
      });
      const body = url.endsWith("/oauth/connect") ? { authorizationUrl: "about:blank#signin" } : { oauth };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AuthorizationPanel name="linear" canManage={canManage} />
    </QueryClientProvider>,
  );
  return requests;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the Authorization panel", () => {
  it("not connected: says so, and offers Connect to an admin", async () => {
    renderPanel(base);
    expect(await screen.findByText("Not connected")).toBeTruthy();
    expect(screen.getByText(/has not signed in to this server yet/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Connect" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Disconnect" })).toBeNull();
  });

  it("connected: registration, issuer, scopes, expiry and who connected; Sign in again and Disconnect", async () => {
    renderPanel({
      ...base,
      status: "connected",
      registration: "metadata_document",
      issuer: "https://auth.linear.app",
      scopes: ["read", "write"],
      expiresAt: "2030-01-01T00:00:00.000Z",
      connectedAt: "2029-12-31T00:00:00.000Z",
      connectedBy: "ada@example.com",
    });
    expect(await screen.findByText("Connected")).toBeTruthy();
    expect(screen.getByText("Client ID metadata document")).toBeTruthy();
    expect(screen.getByText("https://auth.linear.app")).toBeTruthy();
    expect(screen.getByRole("list", { name: "Granted scopes" }).textContent).toBe("readwrite");
    expect(screen.getByText(/renews automatically/)).toBeTruthy();
    expect(screen.getByText(/by ada@example.com/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign in again" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Disconnect" })).toBeTruthy();
  });

  it("a missing scope: the last problem in full, and Grant scope asks for exactly that scope", async () => {
    const requests = renderPanel({
      ...base,
      status: "needs_authorization",
      registration: "dynamic",
      scopes: ["read"],
      neededScope: "write",
      connectedAt: "2029-12-31T00:00:00.000Z",
      problem: {
        step: "refresh",
        status: 400,
        message: "invalid_grant: refresh token revoked",
        at: "2030-01-01T00:00:00.000Z",
      },
    });
    expect(await screen.findByText("Needs authorization")).toBeTruthy();
    expect(screen.getByText("Renewing the token failed (HTTP 400)")).toBeTruthy();
    expect(screen.getByText("invalid_grant: refresh token revoked")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Grant scope write" }));
    await waitFor(() => expect(requests.some((r) => r.url.endsWith("/oauth/connect"))).toBe(true));
    expect(requests.find((r) => r.url.endsWith("/oauth/connect"))).toMatchObject({
      method: "POST",
      body: { scope: "write" },
    });
  });

  it("a member who is not an admin sees the state but no buttons", async () => {
    renderPanel({ ...base, status: "connected", scopes: ["read"] }, false);
    expect(await screen.findByText("Connected")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });
});
