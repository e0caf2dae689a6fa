import { describe, expect, it } from "vitest";
import type { ClientFormat } from "@/lib/servers/import-export/client-formats";
import { isKnownOAuthHost } from "@/lib/servers/import-export/oauth-hosts";
import { NEEDS_AUTHORIZATION, type PlannedEntry, planImport } from "@/lib/servers/import-export/plan-import";
import { readClientConfig } from "@/lib/servers/import-export/read-client-config";
import { renderClientConfig } from "@/lib/servers/import-export/render-client-config";

/** A client-side placeholder such as ${VAR}, written without tripping the template-string lint. */
const ref = (inner: string) => `\${${inner}}`;

const planOne = (entry: Record<string, unknown>, format: ClientFormat | "auto" = "auto") =>
  planImport(readClientConfig({ mcpServers: { demo: entry } }, format))[0] as PlannedEntry;

describe("importing a server that signs in with OAuth", () => {
  it.each([
    "https://api.githubcopilot.com/mcp/",
    "https://mcp.linear.app/sse",
    "https://mcp.notion.com/mcp",
    "https://mcp.atlassian.com/v1/sse",
    "https://mcp.sentry.dev/mcp",
    "https://mcp.asana.com/sse",
    "https://mcp.stripe.com",
    "https://docs.mcp.cloudflare.com/mcp",
  ])("%s with no credential header is registered with OAuth, and the report says to connect it", (url) => {
    const plan = planOne({ type: "http", url });
    expect(plan.problems).toEqual([]);
    expect(plan.config?.auth).toEqual({ type: "oauth" });
    expect(plan.warnings).toContain(NEEDS_AUTHORIZATION);
  });

  it.each([
    "https://mcp.example.com/mcp",
    "https://mcp.cloudflare.com.attacker.example/mcp",
    "https://notmcp.linear.app/mcp",
    "not a url",
  ])("%s is not a known OAuth host", (url) => {
    expect(isKnownOAuthHost(url)).toBe(false);
  });

  it("an unknown host without credentials stays unauthenticated", () => {
    const plan = planOne({ type: "http", url: "https://mcp.example.com/mcp" });
    expect(plan.config?.auth).toEqual({ type: "none" });
    expect(plan.warnings).not.toContain(NEEDS_AUTHORIZATION);
  });

  it("a known host reached with a token of its own keeps that token (bearer), not OAuth", () => {
    const plan = planOne({
      type: "http",
      url: "https://api.githubcopilot.com/mcp/",
      headers: { Authorization: "Bearer ghp_fixtureValue" },
    });
    expect(plan.config?.auth).toEqual({ type: "bearer", credential: { secret: "demo-authorization" } });
    expect(plan.warnings).not.toContain(NEEDS_AUTHORIZATION);
  });

  it("a known host reached with an API key header keeps the header", () => {
    const plan = planOne({
      type: "sse",
      url: "https://mcp.linear.app/sse",
      headers: { "X-Api-Key": "lin_x" },
    });
    expect(plan.config?.auth).toEqual({ type: "none" });
  });

  it("Claude Code's oauth block: its client ID and scopes are kept, on any host", () => {
    const plan = planOne(
      {
        type: "http",
        url: "https://mcp.example.com/mcp",
        oauth: { clientId: "switchboard-app", callbackPort: 8080, scopes: "read  write" },
      },
      "claude-code",
    );
    expect(plan.config?.auth).toEqual({
      type: "oauth",
      clientId: "switchboard-app",
      scopes: ["read", "write"],
    });
  });

  it("Cursor's auth block: the client secret moves into a stored secret, never into the registration", () => {
    const plan = planOne(
      {
        url: "https://mcp.example.com/mcp",
        auth: { CLIENT_ID: "cursor-client", CLIENT_SECRET: "cs_fixtureValue", scopes: ["read"] },
      },
      "cursor",
    );
    expect(plan.config?.auth).toEqual({
      type: "oauth",
      clientId: "cursor-client",
      clientSecret: { secret: "demo-oauth-client-secret" },
      scopes: ["read"],
    });
    expect(plan.secretWrites).toEqual([
      { name: "demo-oauth-client-secret", value: "cs_fixtureValue", from: "auth.clientSecret" },
    ]);
    expect(JSON.stringify(plan.config)).not.toContain("cs_fixtureValue");
  });

  it("a client secret from the client's environment is not imported, and the report says so", () => {
    const plan = planOne(
      { url: "https://mcp.example.com/mcp", auth: { CLIENT_ID: "c", CLIENT_SECRET: ref("env:CS") } },
      "cursor",
    );
    expect(plan.config?.auth).toEqual({ type: "oauth", clientId: "c" });
    expect(plan.warnings.join(" ")).toMatch(/client secret came from the client's environment/);
  });

  it("a stdio entry is never given OAuth", () => {
    const plan = planOne({ command: "npx", args: ["mcp-remote", "https://mcp.linear.app/sse"] });
    expect(plan.config?.auth).toBeUndefined();
  });

  it("writing an entry back never carries its OAuth settings or client secret", () => {
    const client = readClientConfig(
      {
        mcpServers: {
          demo: {
            url: "https://mcp.example.com/mcp",
            auth: { CLIENT_ID: "c", CLIENT_SECRET: "cs_fixtureValue" },
          },
        },
      },
      "cursor",
    );
    expect(JSON.stringify(renderClientConfig("cursor", client))).not.toMatch(/cs_fixtureValue|CLIENT_ID/);
  });
});
