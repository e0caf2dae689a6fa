import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/security-headers";

const oauthProbePaths = [
  "/.well-known/oauth-protected-resource/:path*",
  "/.well-known/oauth-authorization-server/:path*",
  "/.well-known/openid-configuration/:path*",
  "/register",
];

const nextConfig: NextConfig = {
  // PGlite loads its WASM through `new URL(..., import.meta.url)`; bundling breaks that at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // Every page, route handler and static file (the gateway path outside Next.js sets them itself).
  async headers() {
    return [{ source: "/:path*", headers: [...securityHeaders] }];
  },
  // The App Router does not route dot-folders (app/.well-known), so the OAuth discovery paths MCP
  // clients probe after a 401 — bare and path-suffixed (`…/mcp`) — and `/register` are rewritten to
  // one handler that answers a JSON 404 (app/oauth/no-authorization-server/route.ts).
  async rewrites() {
    return oauthProbePaths.map((source) => ({ source, destination: "/oauth/no-authorization-server" }));
  },
};

export default nextConfig;
