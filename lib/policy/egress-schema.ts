import { z } from "zod";
import { isAddressOrRange } from "./address-class";

/**
 * The per-workspace egress policy: which programs a stdio server may launch and which HTTP(S)
 * endpoints an HTTP server may be reached at. Stored as JSON in tenant_policies (kind "egress");
 * every field has a default so a stored policy from an older version still parses.
 */

/** Launchers and runtimes the demo servers and the usual MCP install instructions use. */
export const DEFAULT_ALLOWED_COMMANDS = [
  "node",
  "npx",
  "uvx",
  "uv",
  "python3",
  "python",
  "docker",
  "deno",
  "bun",
] as const;

export const commandSchema = z
  .string()
  .trim()
  .min(1, { error: "A command must not be empty." })
  .max(1024, { error: "A command is limited to 1024 characters." })
  .refine((c) => /^[A-Za-z0-9._+-]+$/.test(c) || /^\/[^\0\n\r]+$/.test(c), {
    error: "Use a program name (e.g. node) or an absolute path (e.g. /usr/local/bin/my-server).",
  });

export const hostPatternSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, { error: "A host pattern must not be empty." })
  .max(253, { error: "A host pattern is limited to 253 characters." })
  .refine(
    (p) => p === "*" || /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(p) || /^\[?[0-9a-f:.]+\]?$/.test(p),
    {
      error: "Use a host name (mcp.example.com), a wildcard (*.example.com or *), or an IP address.",
    },
  );

/** Addresses or CIDR ranges a policy allows whatever their class (never a cloud metadata or link-local one). */
export const allowAddressesSchema = z
  .array(
    z.string().trim().toLowerCase().refine(isAddressOrRange, {
      error: "Use an IP address (10.1.2.3, fd00::1) or a CIDR range (10.1.2.0/24, 64:ff9b:1::/48).",
    }),
  )
  .max(200, { error: "At most 200 addresses or ranges." })
  .default([]);

export const egressPolicySchema = z.strictObject({
  stdio: z
    .strictObject({
      allowedCommands: z
        .array(commandSchema)
        .max(200, { error: "At most 200 commands." })
        .default([...DEFAULT_ALLOWED_COMMANDS]),
    })
    .prefault({}),
  http: z
    .strictObject({
      allowedSchemes: z
        .array(z.enum(["https", "http"], { error: 'Schemes are "https" or "http".' }))
        .max(2)
        .default(["https"]),
      /** Host globs a server URL must match; `*` allows any host (the address rules still apply). */
      allowHosts: z.array(hostPatternSchema).max(500, { error: "At most 500 host patterns." }).default(["*"]),
      /** Host globs refused even when allowHosts matches. */
      denyHosts: z.array(hostPatternSchema).max(500, { error: "At most 500 host patterns." }).default([]),
      /** 127.0.0.0/8, ::1, 0.0.0.0 (and their IPv4-mapped forms). */
      allowLoopback: z.boolean().default(false),
      /** 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7. */
      allowPrivate: z.boolean().default(false),
      /**
       * Addresses or ranges allowed whatever their class: a private subnet without every private
       * network, or a reserved range (198.18.0.0/15, 64:ff9b:1::/48…) a site really uses.
       */
      allowAddresses: allowAddressesSchema,
    })
    .prefault({}),
});

export type EgressPolicy = z.infer<typeof egressPolicySchema>;
export type EgressPolicyInput = z.input<typeof egressPolicySchema>;

/**
 * The policy of a new workspace. A local install (Switchboard listening only on loopback) runs
 * its servers next to it, so loopback and plain http are allowed there; a shared install must
 * not let a registered URL reach the services on its own host, so both are refused.
 */
export function defaultEgressPolicy(options: { appListensOnLoopbackOnly: boolean }): EgressPolicy {
  const policy = egressPolicySchema.parse({});
  if (options.appListensOnLoopbackOnly) {
    policy.http.allowLoopback = true;
    policy.http.allowedSchemes = ["https", "http"];
  }
  return policy;
}

/** Whether the address Switchboard binds to (HOST) is reachable only from this machine. */
export function isLoopbackBindAddress(host: string | undefined): boolean {
  if (!host) return false;
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}
