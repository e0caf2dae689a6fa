/**
 * The headers every response carries — pages, REST, and the gateway path server.mjs serves outside
 * Next.js (next.config.ts and lib/gateway/http/entry.ts both read this list). Nothing here may
 * import server code: next.config.ts loads it before the app exists.
 *
 * Scripts and styles allow 'unsafe-inline' because Next.js inlines its bootstrap scripts and
 * styles; nonces would make every page dynamic. What matters against the attacks we know stays
 * strict: no framing (clickjacking), no plugins, no <base> hijack, no foreign form targets, and
 * connections only back to this origin.
 */

const isDevelopment = process.env.NODE_ENV === "development";

const contentSecurityPolicy = [
  "default-src 'self'",
  // React's development build evaluates code for its debugging aids; production never does.
  `script-src 'self' 'unsafe-inline'${isDevelopment ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

export const securityHeaders: ReadonlyArray<{ key: string; value: string }> = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  // For browsers that predate frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Invitation links carry their token in the path: never hand a URL to another site.
  { key: "Referrer-Policy", value: "no-referrer" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  },
];
