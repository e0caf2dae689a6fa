import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // PGlite loads its WASM through `new URL(..., import.meta.url)`; bundling breaks that at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // Every page, route handler and static file (the gateway path outside Next.js sets them itself).
  async headers() {
    return [{ source: "/:path*", headers: [...securityHeaders] }];
  },
};

export default nextConfig;
