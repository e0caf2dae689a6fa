import { z } from "zod";
import { secretNameSchema } from "@/lib/secrets/secrets";
import { whenMissing } from "@/lib/validation";

/**
 * The server configuration accepted by POST /api/v1/servers and the dashboard form
 * (its shape is in /api/v1/openapi.json). Messages are written for the person who sent the request.
 */

const reservedServerNames = new Set(["switchboard", "import", "export"]);

export const serverNameSchema = z
  .string(whenMissing("name is required."))
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, {
    error:
      "Use 1–40 lowercase letters, digits and dashes, starting and ending with a letter or digit (e.g. github-tools).",
  })
  // "import" and "export" would be shadowed by the static routes /api/v1/servers/import|export.
  .refine((name) => !name.includes("--") && !reservedServerNames.has(name), {
    error: "This name is reserved or contains a double dash; pick another.",
  });

const envNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, {
  error: "Environment variable names use letters, digits and underscores and don't start with a digit.",
});
const headerNameSchema = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, {
  error: "Not a valid HTTP header name.",
});

/** A literal (non-secret) value, or a reference resolved only at connect time. */
export const valueSchema = z.union(
  [
    z.string().max(8192, { error: "Values are limited to 8 KiB." }),
    z.strictObject({ secret: secretNameSchema }),
    z.strictObject({ fromEnv: envNameSchema }),
  ],
  { error: 'Use a string, {"secret": NAME} or {"fromEnv": VAR}.' },
);
export type ConfigValue = z.infer<typeof valueSchema>;

const httpUrlSchema = z
  .string(whenMissing("url is required for HTTP transports."))
  .trim()
  .min(1, { error: "url is required for HTTP transports." })
  .max(2048, { error: "url is longer than 2048 characters." })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
      } catch {
        return false;
      }
    },
    { error: "Enter a full http:// or https:// URL, e.g. https://mcp.example.com/mcp." },
  )
  .refine((value) => !/^[a-z]+:\/\/[^/]*@/i.test(value), {
    error: "Put credentials in auth or headers, not in the URL.",
  });

const authSchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: z.literal("none") }),
    z.strictObject({ type: z.literal("bearer"), credential: valueSchema }),
    z.strictObject({
      type: z.literal("api_key"),
      headerName: headerNameSchema.default("X-API-Key"),
      credential: valueSchema,
    }),
    z.strictObject({
      type: z.literal("custom_header"),
      headerName: z.string(whenMissing("A custom header needs a headerName.")).pipe(headerNameSchema),
      credential: valueSchema,
    }),
    // Switchboard registers itself unless an admin enters a client id (and its secret, only by reference).
    z.strictObject({
      type: z.literal("oauth"),
      clientId: z
        .string()
        .trim()
        .min(1)
        .max(512, { error: "clientId is limited to 512 characters." })
        .optional(),
      clientSecret: z
        .strictObject(
          { secret: secretNameSchema },
          { error: 'clientSecret is a stored secret: {"secret": NAME}.' },
        )
        .optional(),
      scopes: z
        .array(
          z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,256}$/, {
            error: "A scope is one word of printable characters.",
          }),
        )
        .max(50, { error: "At most 50 scopes." })
        .optional(),
    }),
  ],
  { error: "auth.type must be one of none, bearer, api_key, custom_header, oauth." },
);

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, { error: `${label} is limited to ${max} characters.` })
    .nullish()
    .transform((v) => v || null);

const commonFields = {
  name: serverNameSchema,
  displayName: optionalText(100, "displayName"),
  description: optionalText(2000, "description"),
  enabled: z.boolean().default(true),
  connectTimeoutMs: z
    .number()
    .int({ error: "connectTimeoutMs must be a whole number of milliseconds." })
    .min(500, { error: "connectTimeoutMs must be at least 500." })
    .max(300_000, { error: "connectTimeoutMs must be at most 300000 (5 minutes)." })
    .default(10_000),
  callTimeoutMs: z
    .number()
    .int({ error: "callTimeoutMs must be a whole number of milliseconds." })
    .min(500, { error: "callTimeoutMs must be at least 500." })
    .max(3_600_000, { error: "callTimeoutMs must be at most 3600000 (1 hour)." })
    .default(30_000),
  healthIntervalSeconds: z
    .number()
    .int({ error: "healthIntervalSeconds must be a whole number of seconds." })
    .min(5, { error: "healthIntervalSeconds must be at least 5." })
    .max(86_400, { error: "healthIntervalSeconds must be at most 86400 (a day)." })
    .default(60),
  /** Every resources/read of the server waits for a person's approval, like a risky tool call. */
  resourceReadsNeedApproval: z
    .boolean({ error: "resourceReadsNeedApproval is true or false." })
    .default(false),
};

const stdioSchema = z.strictObject({
  ...commonFields,
  transport: z.literal("stdio"),
  command: z
    .string(whenMissing("A stdio server needs a command, e.g. node or npx."))
    .trim()
    .min(1, { error: "A stdio server needs a command, e.g. node or npx." })
    .max(1024, { error: "The command is limited to 1024 characters." })
    .refine((c) => !/[\n\r\0]/.test(c), { error: "The command must be one line." }),
  args: z
    .array(z.string().max(4096, { error: "Each argument is limited to 4096 characters." }))
    .max(200, { error: "At most 200 arguments." })
    .default([]),
  cwd: optionalText(1024, "cwd"),
  env: z.record(envNameSchema, valueSchema).default({}),
});

const httpFields = {
  ...commonFields,
  url: httpUrlSchema,
  headers: z.record(headerNameSchema, valueSchema).default({}),
  auth: authSchema.default({ type: "none" }),
};
const streamableHttpSchema = z.strictObject({ ...httpFields, transport: z.literal("streamable-http") });
const sseSchema = z.strictObject({ ...httpFields, transport: z.literal("sse") });

export const serverConfigSchema = z.discriminatedUnion(
  "transport",
  [stdioSchema, streamableHttpSchema, sseSchema],
  {
    error: "transport is required: stdio, streamable-http or sse.",
  },
);

export type ServerConfig = z.infer<typeof serverConfigSchema>;
export type ServerConfigInput = z.input<typeof serverConfigSchema>;
export type Transport = ServerConfig["transport"];
export const transports = ["stdio", "streamable-http", "sse"] as const satisfies readonly Transport[];

/** PATCH bodies: any subset of the fields; the merged result is validated as a whole. */
export const serverPatchSchema = z.record(z.string(), z.unknown(), {
  error: "The body must be a JSON object.",
});
