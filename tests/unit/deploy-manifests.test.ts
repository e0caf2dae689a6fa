import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parse, parseAllDocuments } from "yaml";

// No Docker engine or cluster runs these files here: they are read as text and YAML, and checked
// against the app itself — its health routes, its documented variables, its own parsing of the
// environment, its Host and proxy checks — for what would break a deployment of several replicas.

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

// ---- the app's truth ----

const LIVENESS = "/api/v1/health";
const READINESS = "/api/v1/health/ready";

/** Every variable docs/configuration.md and the gateway's table document (first column of a table row). */
function documentedVariables(): Set<string> {
  const names = new Set<string>();
  for (const page of ["docs/configuration.md", "docs/gateway.md"]) {
    for (const m of read(page).matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)) names.add(m[1] as string);
  }
  return names;
}

type Env = Record<string, string>;

/** The app's modules as a process started with exactly `env` would see them (no other variable of its own). */
async function appWith(env: Env) {
  vi.unstubAllEnvs();
  for (const name of Object.keys(process.env)) {
    if (name.startsWith("SWITCHBOARD_") || ["DATABASE_URL", "HOST", "PORT"].includes(name))
      vi.stubEnv(name, undefined);
  }
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules(); // lib/http/request-guard keeps the allowed hosts it read first
  const { readEnv } = await import("@/lib/env");
  const { checkRequest } = await import("@/lib/http/request-guard");
  const { describeClient, CONNECTION_HEADER } = await import("@/lib/http/request-client");
  return {
    env: readEnv(),
    /** Whether a GET with this Host header gets past proxy.ts's checks. */
    acceptsHost: (host: string) =>
      checkRequest({ headers: new Headers({ host }), url: `http://${host}${READINESS}` }) === undefined,
    /** The client address Switchboard records for a request from `peer` that says X-Forwarded-For: `forwardedFor`. */
    clientBehind: (peer: string, forwardedFor: string) => {
      const connection = {
        peer,
        forwardedHeaders: ["x-forwarded-for"],
        xForwardedFor: forwardedFor,
        forwarded: null,
      };
      const headers = new Headers({ [CONNECTION_HEADER]: encodeURIComponent(JSON.stringify(connection)) });
      return describeClient(headers).address;
    },
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the app these files rely on", () => {
  it("serves liveness and readiness where the probes ask", () => {
    for (const route of [LIVENESS, READINESS]) {
      const file = path.join(root, "app", route, "route.ts");
      expect(existsSync(file), `${file}`).toBe(true);
      expect(readFileSync(file, "utf8")).toMatch(/export (async )?function GET\b/);
    }
  });

  it("migrates from <cwd>/db/migrations and runs its demo servers through tsx from <cwd>/demo-servers", () => {
    expect(read("lib/db/client.ts")).toContain('path.join(process.cwd(), "db", "migrations")');
    expect(read("lib/demo/demo-servers.ts")).toMatch(/"--import", "tsx"/);
    expect(read("lib/demo/demo-servers.ts")).toContain('path.join(projectRoot, "demo-servers", file)');
  });
});

// ---- Dockerfile ----

type Instruction = { keyword: string; args: string };

/** The Dockerfile's stages: instructions with continuation lines joined and comments dropped. */
function dockerStages(): { name: string; instructions: Instruction[] }[] {
  const joined = read("Dockerfile")
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ");
  const stages: { name: string; instructions: Instruction[] }[] = [];
  for (const line of joined.split("\n")) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, keyword = "", args = ""] = m;
    if (keyword === "FROM") stages.push({ name: /\sAS\s+(\S+)/i.exec(args)?.[1] ?? "", instructions: [] });
    stages.at(-1)?.instructions.push({ keyword, args: args.trim() });
  }
  return stages;
}

const runtimeStage = () => {
  const stage = dockerStages().at(-1);
  if (!stage) throw new Error("Dockerfile has no stage");
  return stage;
};
const all = (stage: { instructions: Instruction[] }, keyword: string) =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
const last = (stage: { instructions: Instruction[] }, keyword: string) => all(stage, keyword).at(-1);

/** ENV lines, both `ENV A=1 B=2` and `ENV A 1`. */
function dockerEnv(stage: { instructions: Instruction[] }): Env {
  const env: Env = {};
  for (const args of all(stage, "ENV")) {
    if (!args.includes("=")) {
      const [name = "", ...value] = args.split(/\s+/);
      env[name] = value.join(" ");
      continue;
    }
    for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g))
      env[m[1] as string] = (m[2] as string).replace(/^"|"$/g, "");
  }
  return env;
}

/** Every path copied out of node_modules by a COPY --from (any stage). */
function copiedModules(): string[] {
  return dockerStages()
    .flatMap((stage) => all(stage, "COPY"))
    .flatMap((args) =>
      [...args.matchAll(/\/node_modules\/(\S+)/g)].map((m) => (m[1] as string).replace(/\/$/, "")),
    );
}

describe("Dockerfile", () => {
  it("builds in stages: npm ci, next build, a runtime", () => {
    const stages = dockerStages();
    expect(stages.length).toBeGreaterThanOrEqual(3);
    const runs = stages.flatMap((stage) => all(stage, "RUN")).join("\n");
    expect(runs).toMatch(/npm ci\b/);
    expect(runs).toMatch(/next build\b/);
    expect(all(runtimeStage(), "RUN").join("\n")).not.toMatch(/next build/);
  });

  it("starts from a Node.js major the package supports", () => {
    const from = read("Dockerfile").match(/^ARG NODE_IMAGE=node:(\d+)-[\w-]*slim$/m);
    expect(from, "ARG NODE_IMAGE=node:<major>-<debian>-slim").not.toBeNull();
    const major = Number(from?.[1]);
    const engines = JSON.parse(read("package.json")).engines.node as string;
    // "^20.19.0 || >=22.19.0": the major is named, or above a >= bound.
    const supported = engines.split("||").some((range) => {
      const m = /^\s*(\^|>=)(\d+)\./.exec(range);
      return m !== null && (m[1] === "^" ? Number(m[2]) === major : major >= Number(m[2]));
    });
    expect(supported, `node ${major} against engines "${engines}"`).toBe(true);
  });

  it("runs the runtime stage as a non-root user, under tini, with `node server.mjs`", () => {
    const runtime = runtimeStage();
    const user = last(runtime, "USER")?.split(":")[0];
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user);
    expect(all(runtime, "RUN").join("\n")).toMatch(/apt-get install[^\n]*\btini\b/);
    const entrypoint = JSON.parse(last(runtime, "ENTRYPOINT") ?? "null") as string[];
    expect(entrypoint?.[0]).toMatch(/(^|\/)tini$/);
    expect(entrypoint).toContain("--");
    expect(JSON.parse(last(runtime, "CMD") ?? "null")).toEqual(["node", "server.mjs"]);
  });

  it("listens on all interfaces on the exposed port, keeps its data in the volume, checks liveness", () => {
    const runtime = runtimeStage();
    const env = dockerEnv(runtime);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.NODE_ENV).toBe("production");
    expect(all(runtime, "EXPOSE")).toEqual([env.PORT]);
    expect(all(runtime, "VOLUME")).toEqual([env.SWITCHBOARD_DATA_DIR]);
    const healthcheck = last(runtime, "HEALTHCHECK") ?? "";
    expect(healthcheck).toContain(`${LIVENESS}'`);
    expect(healthcheck).not.toMatch(/\bcurl\b|\bwget\b/); // not in the slim image
  });

  it("ships what server.mjs reads at run time", () => {
    const copies = all(runtimeStage(), "COPY").join("\n");
    for (const needed of ["server.mjs", "next.config.ts", "package.json", "/app/.next", "/app/node_modules"])
      expect(copies).toContain(needed);
    for (const folder of ["db", "lib", "demo-servers"])
      expect(copies).toMatch(new RegExp(`^${folder} `, "m"));
  });

  it("keeps tsx, a devDependency, and everything it needs in the production node_modules", () => {
    const lock = JSON.parse(read("package-lock.json")).packages as Record<
      string,
      {
        dev?: boolean;
        devOptional?: boolean;
        dependencies?: Record<string, string>;
        optionalDependencies?: Record<string, string>;
      }
    >;
    const devOnly = (name: string) => {
      const entry = lock[`node_modules/${name}`];
      return entry !== undefined && (entry.dev === true || entry.devOptional === true);
    };
    const needed = new Set<string>();
    const visit = (name: string) => {
      const entry = lock[`node_modules/${name}`];
      if (!entry || needed.has(name)) return;
      if (devOnly(name)) needed.add(name);
      for (const dep of Object.keys(entry.dependencies ?? {})) visit(dep);
      // Optional dependencies are platform binaries (@esbuild/linux-x64…): their scope folder is copied.
      for (const dep of Object.keys(entry.optionalDependencies ?? {}))
        if (dep.startsWith("@")) needed.add(dep.split("/")[0] as string);
    };
    visit("tsx");
    expect(needed).toContain("tsx");
    const copied = new Set(copiedModules());
    expect([...needed].filter((name) => !copied.has(name))).toEqual([]);
  });

  it(".dockerignore leaves out local state but not what the build type-checks", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#"));
    for (const local of ["node_modules", ".next", ".data", ".git"]) expect(ignored).toContain(local);
    // next build type-checks every .ts tsconfig.json includes; scripts/ imports tests/.
    const tsconfig = JSON.parse(read("tsconfig.json")) as { include: string[] };
    expect(tsconfig.include).toContain("**/*.ts");
    for (const kept of [
      "tests",
      "scripts",
      "app",
      "lib",
      "db",
      "demo-servers",
      "server.mjs",
      "package-lock.json",
    ])
      expect(ignored.filter((pattern) => pattern === kept || pattern === `${kept}/`)).toEqual([]);
  });
});

// ---- HAProxy ----

/** "10m" → 600; HAProxy's default unit is milliseconds. */
function seconds(value: string): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(value);
  if (!m) throw new Error(`not a HAProxy time: ${value}`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 }[(m[2] ?? "ms") as "ms"];
  return Number(m[1]) * unit;
}

function haproxy() {
  const lines = read("deploy/haproxy.cfg")
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter(Boolean);
  const timeout = (name: string) => {
    const line = lines.filter((l) => l.startsWith(`timeout ${name} `)).at(-1);
    return line ? seconds(line.split(/\s+/)[2] as string) : undefined;
  };
  const servers = lines
    .filter((l) => l.startsWith("server "))
    .map((l) => {
      const [, name = "", address = ""] = l.split(/\s+/);
      const [host = "", port = ""] = address.split(":");
      return { name, host, port, line: l };
    });
  return { lines, timeout, servers };
}

describe("deploy/haproxy.cfg", () => {
  it("balances round-robin with no stickiness", () => {
    const { lines } = haproxy();
    expect(lines).toContain("balance roundrobin");
    expect(
      lines.filter((l) => /^(cookie|stick|stick-table|hash-type|balance (?!roundrobin))/.test(l)),
    ).toEqual([]);
    expect(lines.filter((l) => /\scookie\s/.test(l))).toEqual([]);
  });

  it("checks each replica's readiness with a Host the app accepts, and forwards the client", async () => {
    const { lines, servers } = haproxy();
    expect(lines).toContain("option httpchk");
    expect(lines).toContain("option forwardfor");
    expect(lines).toContain("http-check expect status 200");
    const send = lines.find((l) => l.startsWith("http-check send "));
    expect(send).toMatch(new RegExp(`\\suri ${READINESS.replaceAll("/", "\\/")}(\\s|$)`));
    const checkHost = /\shdr Host (\S+)/i.exec(send ?? "")?.[1];
    expect(
      checkHost,
      "the check must send a Host header: Switchboard refuses requests without one",
    ).toBeDefined();
    const everyServerChecked = lines.some((l) => l.startsWith("default-server ") && /\scheck(\s|$)/.test(l));
    for (const server of servers) expect(everyServerChecked || /\scheck(\s|$)/.test(server.line)).toBe(true);
    for (const replica of composeReplicas()) {
      const app = await appWith(composeEnv(replica));
      expect(app.acceptsHost(checkHost as string), `${replica} refuses the check's Host`).toBe(true);
    }
  });

  it("waits longer than any long poll the API accepts, and keeps streams open an hour", async () => {
    const { timeout } = haproxy();
    const server = timeout("server") ?? 0;
    const client = timeout("client") ?? 0;
    const { waitQuerySchema, postCallBodySchema } = await import("@/lib/calls/call-body");
    for (const wait of [server, client]) {
      // Waits are accepted up to a bound: one of this length is refused, so every accepted wait is shorter.
      expect(waitQuerySchema.safeParse({ timeoutSeconds: String(wait) }).success).toBe(false);
      expect(postCallBodySchema.safeParse({ tool: "a__b", waitSeconds: wait }).success).toBe(false);
    }
    expect(timeout("tunnel") ?? 0).toBeGreaterThanOrEqual(3600);
  });
});

// ---- docker-compose.yml ----

type ComposeService = {
  image?: string;
  build?: unknown;
  environment?: Env | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string[] | string };
  stop_grace_period?: string;
  volumes?: string[];
  ports?: string[];
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
};

function compose(): { services: Record<string, ComposeService>; volumes?: Record<string, unknown> } {
  return parse(read("docker-compose.yml"), { merge: true });
}

/** The replicas: the services built from this repository. */
function composeReplicas(): string[] {
  return Object.entries(compose().services)
    .filter(([, service]) => service.build !== undefined)
    .map(([name]) => name);
}

function rawEnv(service: ComposeService): Env {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
  return Object.fromEntries(
    env.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
}

/** A key a person would pass (`openssl rand -base64 32`), for `${SWITCHBOARD_SECRET_KEY:?…}`. */
const SAMPLE_KEY = Buffer.alloc(32, 7).toString("base64");

/** Compose's interpolation with nothing set in the shell but the required secret key. */
function interpolate(value: string): string {
  return value.replace(
    /\$\{([A-Z0-9_]+)(?::?([-?])([^}]*))?\}/g,
    (_, name: string, op?: string, arg?: string) => {
      if (op === "-") return arg ?? "";
      if (op === "?") {
        if (name === "SWITCHBOARD_SECRET_KEY") return SAMPLE_KEY;
        throw new Error(`${name} is required`);
      }
      return "";
    },
  );
}

function composeEnv(replica: string): Env {
  const service = compose().services[replica];
  if (!service) throw new Error(`no service ${replica}`);
  return Object.fromEntries(Object.entries(rawEnv(service)).map(([k, v]) => [k, interpolate(v)]));
}

/** depends_on in either form: a list of names (started), or names with a condition. */
const dependsOn = (service: ComposeService): Record<string, { condition?: string }> =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((name) => [name, {}]))
    : (service.depends_on ?? {});

describe("docker-compose.yml", () => {
  it("runs at least two replicas that share one required secret key and one PostgreSQL", () => {
    const { services } = compose();
    const replicas = composeReplicas();
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    const keys = new Set(
      replicas.map((name) => rawEnv(services[name] as ComposeService).SWITCHBOARD_SECRET_KEY),
    );
    expect(keys.size).toBe(1);
    // Required from the shell, never a default: a default would be a key every copy of this file shares.
    expect([...keys][0]).toMatch(/^\$\{SWITCHBOARD_SECRET_KEY:\?[^}]+\}$/);
    const urls = new Set(replicas.map((name) => composeEnv(name).DATABASE_URL));
    expect(urls.size).toBe(1);
    const url = new URL([...urls][0] as string);
    expect(url.protocol).toBe("postgres:");
    const database = services[url.hostname];
    expect(database?.image, `DATABASE_URL's host ${url.hostname} is a service`).toMatch(/^postgres:\d+/);
    expect(String(database?.healthcheck?.test)).toContain("pg_isready");
    const namedVolumes = Object.keys(compose().volumes ?? {});
    expect(database?.volumes?.some((v) => namedVolumes.includes(v.split(":")[0] ?? ""))).toBe(true);
    for (const name of replicas)
      expect(dependsOn(services[name] as ComposeService)[url.hostname]?.condition).toBe("service_healthy");
  });

  it("gives each replica a configuration the app accepts, every Switchboard variable documented", async () => {
    const documented = documentedVariables();
    for (const name of composeReplicas()) {
      const env = composeEnv(name);
      expect(Object.keys(env).filter((v) => !documented.has(v))).toEqual([]);
      const app = await appWith(env);
      expect(app.env.databaseUrl).toBe(env.DATABASE_URL);
      expect(app.env.secretKey).toBe(SAMPLE_KEY);
    }
  });

  it("sends the proxy's traffic to the port the replicas listen on", () => {
    const { servers } = haproxy();
    const replicas = composeReplicas();
    expect(servers.map((s) => s.host).sort()).toEqual([...replicas].sort());
    for (const server of servers) {
      // PORT, as server.mjs reads it (default 3000): the replica's own, else the image's.
      const port = composeEnv(server.host).PORT ?? dockerEnv(runtimeStage()).PORT ?? "3000";
      expect(server.port, `${server.name}'s port`).toBe(port);
    }
    const proxy = compose().services.haproxy;
    expect(proxy?.image).toMatch(/^haproxy:/);
    expect(proxy?.volumes?.some((v) => v.startsWith("./deploy/haproxy.cfg:"))).toBe(true);
    const bind = haproxy().lines.find((l) => l.startsWith("bind "));
    const published = proxy?.ports?.map((p) => p.split(":").at(-1));
    expect(published).toContain(bind?.split(":").at(-1));
  });

  it("accepts the public URL's Host, believes X-Forwarded-For from HAProxy only", async () => {
    const proxy = compose().services.haproxy;
    const networks = proxy?.networks && !Array.isArray(proxy.networks) ? Object.values(proxy.networks) : [];
    const proxyAddress = networks.map((n) => n?.ipv4_address).find(Boolean);
    expect(proxyAddress, "HAProxy needs a fixed address to be trusted").toBeDefined();
    for (const name of composeReplicas()) {
      const app = await appWith(composeEnv(name));
      expect(app.acceptsHost(new URL(app.env.publicUrl).host)).toBe(true);
      expect(app.acceptsHost("attacker.example")).toBe(false);
      expect(app.clientBehind(proxyAddress as string, "203.0.113.7")).toBe("203.0.113.7");
      // Another container of the network is not the proxy: what it forwards is not believed.
      const other = (proxyAddress as string).replace(/\.\d+$/, ".250");
      expect(app.clientBehind(other, "203.0.113.7")).toBe(other);
    }
  });

  it("lets docker stop wait longer than the shutdown grace period", async () => {
    for (const name of composeReplicas()) {
      const app = await appWith(composeEnv(name));
      const period = compose().services[name]?.stop_grace_period;
      expect(period, "stop_grace_period (docker's default is 10 s)").toBeDefined();
      const stop = /^(\d+)s$/.exec(period ?? "")?.[1];
      expect(Number(stop)).toBeGreaterThan(app.env.shutdownGraceSeconds);
    }
  });
});

// ---- Kubernetes ----

type Probe = {
  httpGet?: { path?: string; port?: number | string; httpHeaders?: { name: string; value: string }[] };
};
type Container = {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
};
type Manifest = {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  stringData?: Record<string, string>;
  data?: Record<string, string>;
  spec?: {
    type?: string;
    replicas?: number;
    selector?: Record<string, unknown> & { matchLabels?: Record<string, string> };
    strategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string } };
    ports?: { port: number; targetPort: number | string }[];
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: {
        terminationGracePeriodSeconds?: number;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
        containers: Container[];
      };
    };
  };
};

function kubernetes(): Manifest[] {
  const documents = parseAllDocuments(read("deploy/kubernetes/switchboard.yaml"));
  if (!Array.isArray(documents)) throw new Error("not a YAML stream");
  for (const document of documents) expect(document.errors).toEqual([]);
  return documents.map((document) => document.toJS() as Manifest);
}

function one(kind: string): Manifest {
  const found = kubernetes().filter((m) => m.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as Manifest;
}

function container(): Container {
  const containers = one("Deployment").spec?.template?.spec?.containers ?? [];
  expect(containers).toHaveLength(1);
  return containers[0] as Container;
}

/** A port by number or by the container's name for it. */
function containerPort(port: number | string | undefined): number | undefined {
  if (typeof port === "number")
    return container().ports?.some((p) => p.containerPort === port) ? port : undefined;
  return container().ports?.find((p) => p.name === port)?.containerPort;
}

/** The container's environment with the Secret's values filled in. */
function kubernetesEnv(): Env {
  const secret = one("Secret");
  const values = {
    ...secret.stringData,
    ...Object.fromEntries(
      Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString()]),
    ),
  };
  const env: Env = {};
  for (const from of container().envFrom ?? [])
    if (from.secretRef?.name === secret.metadata.name) Object.assign(env, values);
  for (const entry of container().env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    if (ref?.name === secret.metadata.name && values[ref.key] !== undefined)
      env[entry.name] = values[ref.key] as string;
    else if (entry.value !== undefined) env[entry.name] = entry.value;
  }
  return env;
}

describe("deploy/kubernetes/switchboard.yaml", () => {
  it("holds a Secret, a Deployment and a ClusterIP Service", () => {
    expect(
      kubernetes()
        .map((m) => m.kind)
        .sort(),
    ).toEqual(["Deployment", "Secret", "Service"]);
    expect(one("Service").spec?.type).toBe("ClusterIP");
  });

  it("gives every replica the key and the database from the one Secret", () => {
    const secret = one("Secret");
    expect(secret.metadata.name).toBe("switchboard-secrets");
    const keys = Object.keys({ ...secret.stringData, ...secret.data });
    expect(keys).toEqual(expect.arrayContaining(["SWITCHBOARD_SECRET_KEY", "DATABASE_URL"]));
    const env = kubernetesEnv();
    // Only from the Secret: a value written in the Deployment would override it.
    expect(
      (container().env ?? []).filter(
        (e) => ["SWITCHBOARD_SECRET_KEY", "DATABASE_URL"].includes(e.name) && e.value !== undefined,
      ),
    ).toEqual([]);
    expect(env.SWITCHBOARD_SECRET_KEY).toBe(secret.stringData?.SWITCHBOARD_SECRET_KEY);
    expect(env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
  });

  it("runs two replicas and replaces them one at a time without losing one", () => {
    const spec = one("Deployment").spec;
    expect(spec?.replicas).toBeGreaterThanOrEqual(2);
    expect(spec?.strategy?.type).toBe("RollingUpdate");
    expect(spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
    expect(spec?.selector?.matchLabels).toEqual(spec?.template?.metadata?.labels);
  });

  it("probes readiness and liveness on the port the app listens on, with a Host it accepts", async () => {
    const app = await appWith(kubernetesEnv());
    const probes = { [READINESS]: container().readinessProbe, [LIVENESS]: container().livenessProbe };
    expect(container().readinessProbe?.httpGet?.path).toBe(READINESS);
    expect(container().livenessProbe?.httpGet?.path).toBe(LIVENESS);
    for (const [route, probe] of Object.entries(probes)) {
      expect(containerPort(probe?.httpGet?.port), `${route} probe port`).toBe(Number(kubernetesEnv().PORT));
      // Without one the kubelet sends Host: <pod IP>:<port>, which Switchboard refuses (403).
      const host = probe?.httpGet?.httpHeaders?.find((h) => h.name.toLowerCase() === "host")?.value;
      expect(host, `${route} probe Host header`).toBeDefined();
      expect(app.acceptsHost(host as string)).toBe(true);
    }
    expect(app.acceptsHost("10.1.2.3:3000")).toBe(false);
  });

  it("routes the Service to the container's port", () => {
    const service = one("Service");
    expect(service.spec?.selector).toEqual(one("Deployment").spec?.template?.metadata?.labels);
    expect(service.spec?.ports).toHaveLength(1);
    const target = containerPort(service.spec?.ports?.[0]?.targetPort);
    expect(target).toBe(Number(kubernetesEnv().PORT));
    expect(String(target)).toBe(dockerEnv(runtimeStage()).PORT);
  });

  it("is configured as the app accepts: documented variables, public host allowed, the proxy trusted", async () => {
    const env = kubernetesEnv();
    const documented = documentedVariables();
    expect(Object.keys(env).filter((v) => !documented.has(v))).toEqual([]);
    const app = await appWith(env);
    expect(env.HOST).toBe("0.0.0.0");
    expect(app.acceptsHost(new URL(app.env.publicUrl).host)).toBe(true);
    expect(app.env.trustedProxies.length).toBeGreaterThan(0);
  });

  it("waits longer than the shutdown grace before SIGKILL", async () => {
    const app = await appWith(kubernetesEnv());
    const period = one("Deployment").spec?.template?.spec?.terminationGracePeriodSeconds;
    expect(period).toBeGreaterThan(app.env.shutdownGraceSeconds);
  });

  it("runs as the image's non-root user, with resources requested and limited", () => {
    const pod = one("Deployment").spec?.template?.spec;
    expect(pod?.securityContext?.runAsNonRoot).toBe(true);
    const imageUser = last(runtimeStage(), "USER")?.split(":")[0];
    // runAsNonRoot can verify a numeric USER only; runAsUser, when set, must not be root.
    expect(/^\d+$/.test(imageUser ?? "") || pod?.securityContext?.runAsUser !== undefined).toBe(true);
    if (pod?.securityContext?.runAsUser !== undefined) {
      expect(pod.securityContext.runAsUser).not.toBe(0);
      expect(String(pod.securityContext.runAsUser)).toBe(imageUser);
    }
    const resources = container().resources;
    expect(resources?.requests?.memory).toBeDefined();
    expect(resources?.requests?.cpu).toBeDefined();
    expect(resources?.limits?.memory).toBeDefined();
  });
});
