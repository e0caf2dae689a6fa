import path from "node:path";
import { z } from "zod";
import { allowAddressesSchema, commandSchema, hostPatternSchema } from "./egress-schema";
import { isExactSpec, PLACEHOLDERS } from "./launch-spec-pattern";
import { isOwnSetting } from "./stdio-environment";

/**
 * The instance policy, set by instance owners only: what any workspace's servers may ever do on
 * this machine. Workspace egress policies narrow it, never widen it. Stored as one row
 * (instance_policies); every field has a default so an older stored policy still parses.
 */

const envNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, {
  error: "Environment variable names use letters, digits and underscores and don't start with a digit.",
});

const argPatternSchema = z
  .string()
  .max(4096, { error: "Each argument is limited to 4096 characters." })
  .refine((a) => !/^\{.*\}$/.test(a) || (PLACEHOLDERS as readonly string[]).includes(a), {
    error: `Placeholders are ${PLACEHOLDERS.join(", ")}.`,
  });

export const launchSpecSchema = z
  .strictObject({
    program: commandSchema,
    args: z.array(argPatternSchema).max(50, { error: "At most 50 arguments." }).default([]),
    /** Further arguments may follow the pattern. */
    rest: z.boolean().default(false),
    /** owners: only a launch an instance owner saved; everyone: any workspace admin may register it. */
    audience: z
      .enum(["owners", "everyone"], { error: 'audience is "owners" or "everyone".' })
      .default("owners"),
    why: z.string().trim().max(300, { error: "Keep the reason under 300 characters." }).default(""),
  })
  .refine((spec) => spec.audience === "owners" || isExactSpec(spec) || spec.why.length > 0, {
    error:
      "A spec with placeholders or further arguments open to every workspace lets their admins choose what runs: say why in `why`.",
    path: ["why"],
  });
export type LaunchSpecInput = z.input<typeof launchSpecSchema>;

const absoluteFolderSchema = z
  .string()
  .trim()
  .max(1024)
  .refine((p) => path.isAbsolute(p) && !p.includes("\0"), { error: "Use an absolute folder path." });

export const instancePolicySchema = z.strictObject({
  /** Who may create workspaces: instance owners only (the default), or any signed-in member. */
  workspaceCreation: z
    .enum(["owners", "members"], { error: 'workspaceCreation is "owners" or "members".' })
    .default("owners"),
  stdio: z
    .strictObject({
      launchSpecs: z
        .array(launchSpecSchema)
        .max(200, { error: "At most 200 launch specs." })
        .default(() => defaultLaunchSpecs()),
      /** Variables that change what runs (NODE_OPTIONS, PATH, LD_*…) a server's env may still set. */
      allowedEnv: z.array(envNameSchema).max(100, { error: "At most 100 names." }).default([]),
      /** A server's working folder must lie inside one of these. */
      cwdRoots: z
        .array(absoluteFolderSchema)
        .max(50, { error: "At most 50 folders." })
        .default(() => [projectRoot()]),
    })
    .prefault({}),
  fromEnv: z
    .strictObject({
      /** The variables of Switchboard's environment `{"fromEnv": NAME}` may read (default: none). */
      allowed: z
        .array(
          envNameSchema.refine((name) => !isOwnSetting(name), {
            error:
              "Switchboard's own settings (SWITCHBOARD_*, DATABASE_URL, PG*…) can never be read by a server.",
          }),
        )
        .max(200, { error: "At most 200 names." })
        .default([]),
    })
    .prefault({}),
  /** The egress floor: what no workspace policy can allow. */
  http: z
    .strictObject({
      allowedSchemes: z
        .array(z.enum(["https", "http"], { error: 'Schemes are "https" or "http".' }))
        .max(2)
        .default(["https", "http"]),
      allowLoopback: z.boolean().default(false),
      allowPrivate: z.boolean().default(false),
      /** Addresses or ranges allowed whatever their class (never metadata or link-local). */
      allowAddresses: allowAddressesSchema,
      denyHosts: z.array(hostPatternSchema).max(500, { error: "At most 500 host patterns." }).default([]),
    })
    .prefault({}),
});

export type InstancePolicy = z.infer<typeof instancePolicySchema>;
export type InstancePolicyInput = z.input<typeof instancePolicySchema>;

const projectRoot = () => process.cwd();

/**
 * What the usual client configurations run (Claude Desktop, Claude Code, Cursor, VS Code), for
 * instance owners only, and the demo servers word for word, for every workspace.
 */
export function defaultLaunchSpecs(root = projectRoot()): z.output<typeof launchSpecSchema>[] {
  const demo = (file: string, ...extra: string[]) => ({
    program: "node",
    args: ["--import", "tsx", path.join(root, "demo-servers", file), ...extra],
    rest: false,
    audience: "everyone" as const,
    why: "A demo server shipped with Switchboard, exactly as registered.",
  });
  const clientConfig = "What MCP client configurations usually run; only an instance owner may register it.";
  return [
    { program: "npx", args: ["-y", "{package}"], rest: true, audience: "owners", why: clientConfig },
    { program: "uvx", args: ["{package}"], rest: true, audience: "owners", why: clientConfig },
    { program: "node", args: ["{file}"], rest: true, audience: "owners", why: clientConfig },
    {
      program: "docker",
      args: ["run", "{docker-run-options}", "{image}"],
      rest: true,
      audience: "owners",
      why: clientConfig,
    },
    demo("local-tools.ts"),
    demo("files.ts", path.join(root, "demo-servers", "sandbox")),
  ];
}

/**
 * The policy before an owner saved one. A local install (listening on loopback only) runs its
 * servers next to it, so loopback and private addresses are within the floor; a shared install
 * keeps both out of every workspace's reach until an owner opens them.
 */
export function defaultInstancePolicy(options: { appListensOnLoopbackOnly: boolean }): InstancePolicy {
  const policy = instancePolicySchema.parse({});
  policy.http.allowLoopback = options.appListensOnLoopbackOnly;
  policy.http.allowPrivate = options.appListensOnLoopbackOnly;
  return policy;
}
