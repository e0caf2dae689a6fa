import { isIP } from "node:net";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { listensOnLoopbackOnly } from "@/lib/http/listening";

const commaSeparated = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  );

/** A variable set to nothing (`X=`) is unset; a value it has must pass `schema`. */
const setOrUnset = <T extends z.ZodType<unknown, string>>(schema: T) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(schema.optional());

/** Switchboard's own configuration, read once from the process environment. */
const envSchema = z.object({
  DATABASE_URL: setOrUnset(
    z.string().regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://"),
  ),
  SWITCHBOARD_DATA_DIR: z.string().trim().min(1).default(".data"),
  SWITCHBOARD_SECRET_KEY: z.string().trim().optional(),
  SWITCHBOARD_SECRET_KEY_FILE: z.string().trim().optional(),
  SWITCHBOARD_STDIO_USER: z.string().trim().min(1).default("nobody"),
  SWITCHBOARD_SEED_DEMO: z.enum(["true", "false"]).default("true"),
  SWITCHBOARD_BOOTSTRAP_API_KEY: setOrUnset(
    z
      .string()
      .regex(
        /^sb_[A-Za-z0-9_-]{17,}$/,
        "SWITCHBOARD_BOOTSTRAP_API_KEY must look like a Switchboard key: sb_ then at least 17 letters, digits, - or _ (e.g. sb_$(openssl rand -hex 24))",
      ),
  ),
  SWITCHBOARD_PUBLIC_URL: z.url().optional(),
  SWITCHBOARD_ALLOWED_HOSTS: z.string().optional(),
  SWITCHBOARD_TRUSTED_PROXIES: commaSeparated.pipe(
    z.array(
      z.string().refine((entry) => ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry), {
        error: (issue) =>
          `SWITCHBOARD_TRUSTED_PROXIES: "${String(issue.input)}" is neither an IP address nor a CIDR range (e.g. 127.0.0.1, 10.0.0.0/8)`,
      }),
    ),
  ),
  SWITCHBOARD_DNS_SERVERS: commaSeparated.pipe(
    z.array(
      z.string().refine(isDnsServer, {
        error:
          "SWITCHBOARD_DNS_SERVERS lists IP addresses, each with an optional port: 10.0.0.2,10.0.0.3:5353,[fd00::53]:53",
      }),
    ),
  ),
  SWITCHBOARD_MCP_ENABLED: z.enum(["true", "false"]).default("true"),
  SWITCHBOARD_MCP_APPROVAL_WAIT_SECONDS: z.coerce.number().int().min(1).max(3600).default(50),
  SWITCHBOARD_APPROVED_START_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  SWITCHBOARD_WEBHOOK_RETRY_SECONDS: commaSeparated.pipe(
    z
      .array(
        z
          .string()
          .pipe(z.coerce.number())
          .pipe(
            z
              .number()
              .min(0.1, { error: "SWITCHBOARD_WEBHOOK_RETRY_SECONDS: each delay is at least 0.1 s" })
              .max(86_400, { error: "SWITCHBOARD_WEBHOOK_RETRY_SECONDS: each delay is at most 86400 s" }),
          ),
      )
      .max(20, { error: "SWITCHBOARD_WEBHOOK_RETRY_SECONDS: at most 20 retries" }),
  ),
  SWITCHBOARD_MCP_RESUMABLE_STREAMS: z.enum(["true", "false"]).default("false"),
  SWITCHBOARD_MCP_MAX_SESSIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  SWITCHBOARD_MCP_MAX_SESSIONS_PER_WORKSPACE: z.coerce.number().int().min(1).max(1_000_000).default(500),
  SWITCHBOARD_MCP_MAX_SESSIONS_PER_PRINCIPAL: z.coerce.number().int().min(1).max(1_000_000).default(100),
  SWITCHBOARD_SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(20),
  SWITCHBOARD_METRICS: z.enum(["on", "off"], { error: "SWITCHBOARD_METRICS is on or off" }).default("off"),
  // Long enough not to be guessed: it guards every workspace's call counts.
  SWITCHBOARD_METRICS_TOKEN: z
    .string()
    .trim()
    .min(24, { error: "SWITCHBOARD_METRICS_TOKEN is at least 24 characters (e.g. $(openssl rand -hex 24))" })
    .optional(),
  SWITCHBOARD_LOG_LEVEL: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((v) => v || "info")
    .pipe(
      z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"], {
        error: (issue) =>
          `SWITCHBOARD_LOG_LEVEL: "${String(issue.input)}" is not a level; use one of trace, debug, info, warn, error, fatal, silent (default info)`,
      }),
    ),
  SWITCHBOARD_LOG_FORMAT: setOrUnset(
    z.enum(["json", "pretty"], { error: "SWITCHBOARD_LOG_FORMAT is json or pretty" }),
  ),
  SWITCHBOARD_REPLICA_ID: setOrUnset(
    z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,62}$/, {
      error: "SWITCHBOARD_REPLICA_ID: letters, digits, . _ : - (at most 63, starting with a letter or digit)",
    }),
  ),
  SWITCHBOARD_REPLICA_URL: setOrUnset(
    z.url({
      protocol: /^https?$/,
      error: "SWITCHBOARD_REPLICA_URL is an http(s) URL other replicas reach this one at",
    }),
  ),
  HOST: z.string().trim().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
});

export type Env = {
  databaseUrl: string | undefined;
  dataDir: string;
  secretKey: string | undefined;
  /** A file holding the key, so it need not sit in the environment (readable in /proc by same-user processes). */
  secretKeyFile: string | undefined;
  /** The user stdio servers run as when Switchboard runs as root. */
  stdioUser: string;
  seedDemoServers: boolean;
  bootstrapApiKey: string | undefined;
  /** The URL people use to reach the dashboard (cookies, invitation links, origin checks). */
  publicUrl: string;
  /** Hosts (`name` for any port, or `name:port`) accepted in Host/Origin headers: DNS-rebinding protection. */
  allowedHosts: string[];
  /** Reverse proxies (addresses, CIDRs) whose Forwarded / X-Forwarded-For name the client (lib/http/request-client). */
  trustedProxies: readonly string[];
  /**
   * True when the server's sockets are bound to loopback addresses only (a local, single-machine
   * install). Not configuration but a fact of the running server (lib/http/listening), read live.
   */
  readonly listensOnLoopbackOnly: boolean;
  /** DNS servers (`ip` or `ip:port`) for downstream servers' hosts; empty: the system's resolver. */
  dnsServers: string[];
  /** The MCP gateway at /mcp; false answers 404 there. */
  mcpEnabled: boolean;
  /** How long a gateway tools/call waits for an approval before answering with the call id. */
  mcpApprovalWaitSeconds: number;
  /**
   * How long an approved call may wait to start before it is expired instead of run (a decision
   * can say otherwise); covers the time a stopped process's calls take to be picked up elsewhere.
   */
  approvedStartSeconds: number;
  /** Session streams resumable with Last-Event-ID (off by default: it costs every call an event). */
  mcpResumableStreams: boolean;
  /** Gateway sessions one process keeps: in all, per workspace, per principal (lib/gateway/sessions). */
  mcpSessionCaps: { perProcess: number; perWorkspace: number; perPrincipal: number };
  /** On SIGTERM/SIGINT, how long calls in flight may run on before they are ended (lib/runtime/shutdown). */
  shutdownGraceSeconds: number;
  /** GET /metrics (lib/observability): off unless SWITCHBOARD_METRICS=on; the scrape token, if any. */
  metrics: { enabled: boolean; token: string | undefined };
  /** The waits between a webhook delivery's attempts (lib/webhooks): one retry per entry. */
  webhookRetrySeconds: readonly number[];
  /**
   * This process among the replicas sharing a database (lib/runtime/replica): its name, and the
   * address other replicas hand a gateway session's requests to. Both derived when unset.
   */
  replica: { id: string | undefined; url: string | undefined; port: number };
  /** The server log (lib/observability/log): the lowest level written, and JSON lines or pretty text. */
  log: { level: LogLevel; format: "json" | "pretty" };
};

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";

const loopbackHosts = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

const envNames = Object.keys(envSchema.shape) as Array<keyof typeof envSchema.shape>;
let lastRead: { fingerprint: string; env: Env } | undefined;
/** Under Vitest (which sets VITEST), tests stub variables between reads; nothing else does. */
const variablesChangeWhileRunning = process.env.VITEST !== undefined;

/**
 * Read on every request, so parsed once: a server's configuration (`next start` or `next dev`) is
 * fixed when its process starts. Tests stub variables per test, so under the test runner the own
 * variables are compared on each read and parsed again when one changed.
 */
export function readEnv(): Env {
  if (lastRead && !variablesChangeWhileRunning) return lastRead.env;
  const own: Record<string, string | undefined> = {};
  for (const name of envNames) own[name] = process.env[name];
  const fingerprint = `${process.cwd()}\0${JSON.stringify(own)}`;
  if (lastRead?.fingerprint === fingerprint) return lastRead.env;
  const env = parseEnv(own) as Env; // completed by the getter below
  // Where the server listens is known only once server.mjs has bound its sockets, never from HOST:
  // a getter, so a read made before then does not stay wrong.
  Object.defineProperty(env, "listensOnLoopbackOnly", { get: listensOnLoopbackOnly, enumerable: true });
  // Frozen: every caller shares it.
  Object.freeze(env);
  lastRead = { fingerprint, env };
  return env;
}

function parseEnv(source: Record<string, string | undefined>): Omit<Env, "listensOnLoopbackOnly"> {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid Switchboard configuration: ${detail}`);
  }
  const env = parsed.data;
  return {
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.SWITCHBOARD_DATA_DIR),
    secretKey: env.SWITCHBOARD_SECRET_KEY || undefined,
    secretKeyFile: env.SWITCHBOARD_SECRET_KEY_FILE
      ? path.resolve(env.SWITCHBOARD_SECRET_KEY_FILE)
      : undefined,
    stdioUser: env.SWITCHBOARD_STDIO_USER,
    seedDemoServers: env.SWITCHBOARD_SEED_DEMO === "true",
    bootstrapApiKey: env.SWITCHBOARD_BOOTSTRAP_API_KEY,
    publicUrl: (env.SWITCHBOARD_PUBLIC_URL ?? `http://${urlHost(env.HOST)}:${env.PORT}`).replace(/\/$/, ""),
    allowedHosts: allowedHosts(env),
    trustedProxies: Object.freeze(env.SWITCHBOARD_TRUSTED_PROXIES),
    dnsServers: env.SWITCHBOARD_DNS_SERVERS,
    mcpEnabled: env.SWITCHBOARD_MCP_ENABLED === "true",
    mcpApprovalWaitSeconds: env.SWITCHBOARD_MCP_APPROVAL_WAIT_SECONDS,
    mcpResumableStreams: env.SWITCHBOARD_MCP_RESUMABLE_STREAMS === "true",
    approvedStartSeconds: env.SWITCHBOARD_APPROVED_START_SECONDS,
    mcpSessionCaps: {
      perProcess: env.SWITCHBOARD_MCP_MAX_SESSIONS,
      perWorkspace: env.SWITCHBOARD_MCP_MAX_SESSIONS_PER_WORKSPACE,
      perPrincipal: env.SWITCHBOARD_MCP_MAX_SESSIONS_PER_PRINCIPAL,
    },
    shutdownGraceSeconds: env.SWITCHBOARD_SHUTDOWN_GRACE_SECONDS,
    metrics: { enabled: env.SWITCHBOARD_METRICS === "on", token: env.SWITCHBOARD_METRICS_TOKEN },
    webhookRetrySeconds:
      env.SWITCHBOARD_WEBHOOK_RETRY_SECONDS.length > 0
        ? env.SWITCHBOARD_WEBHOOK_RETRY_SECONDS
        : [10, 30, 120, 600],
    replica: { id: env.SWITCHBOARD_REPLICA_ID, url: env.SWITCHBOARD_REPLICA_URL, port: env.PORT },
    log: {
      level: env.SWITCHBOARD_LOG_LEVEL,
      // `npm run dev` is for a person at a terminal; anything else feeds a log pipeline.
      format: env.SWITCHBOARD_LOG_FORMAT ?? (process.env.NODE_ENV === "development" ? "pretty" : "json"),
    },
  };
}

function isDnsServer(entry: string): boolean {
  if (isIP(entry)) return true;
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry) ?? /^([^:]+):(\d{1,5})$/.exec(entry);
  return m !== null && isIP(m[1] ?? "") !== 0 && Number(m[2]) >= 1 && Number(m[2]) <= 65_535;
}

const urlHost = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);

function allowedHosts(env: z.infer<typeof envSchema>): string[] {
  // Loopback names are always allowed (any port); others only when configured.
  const hosts = new Set(["localhost", "127.0.0.1", "[::1]"]);
  if (!loopbackHosts.has(env.HOST) && env.HOST !== "0.0.0.0" && env.HOST !== "::")
    hosts.add(urlHost(env.HOST));
  if (env.SWITCHBOARD_PUBLIC_URL) hosts.add(new URL(env.SWITCHBOARD_PUBLIC_URL).host);
  for (const host of (env.SWITCHBOARD_ALLOWED_HOSTS ?? "").split(",")) {
    if (host.trim()) hosts.add(host.trim().toLowerCase());
  }
  return [...hosts];
}
