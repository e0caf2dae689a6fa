import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its WASM through `new URL(..., import.meta.url)`; bundling breaks that at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
};

export default nextConfig;
