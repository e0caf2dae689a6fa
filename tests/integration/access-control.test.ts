import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import {
  createTestAgent,
  createTestApiKey,
  createTestOperator,
  openProcessTestDatabase,
} from "../fixtures/databases";

/*
 * Every route handler and every server action in app/, found from the files (so a new one cannot
 * be forgotten): without a session or key each refuses with 401; a viewer gets 403 on every
 * mutation. Only Next's request-scope accessors are replaced (there is no Next server here):
 * `headers()` returns the test request's headers; the handlers and actions themselves are real.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
let requestHeaders = new Headers();
vi.mock("next/headers", () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const appDir = path.join(process.cwd(), "app");
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Callable without signing in, each for a stated reason. */
const publicRoutes: Record<string, string> = {
  "GET /api/v1/health": "liveness probe for load balancers",
  "GET /api/v1/health/ready": "readiness probe for load balancers (what is down and why, nothing more)",
  "GET /api/v1/openapi.json":
    "the API's contract (paths and shapes, no data), for clients and code generators",
  "GET /oauth/callback":
    "where an authorization server sends a browser back: the single-use state it carries is the credential (bound to the person who started it)",
  "GET /oauth/client-metadata.json":
    "Switchboard's OAuth client ID metadata document: authorization servers fetch it without credentials",
  "GET /oauth/no-authorization-server":
    "the OAuth discovery paths MCP clients probe after a 401 (rewritten here): a JSON 404 saying Switchboard takes API keys",
  "POST /oauth/no-authorization-server":
    "the OAuth client registration MCP clients try after a 401: the same JSON 404",
  "GET /metrics":
    "off unless SWITCHBOARD_METRICS=on (then its own token or an instance owner's admin key: tests/integration/metrics-endpoint.test.ts)",
};
/** What a public route answers a request with nothing in it. */
const anonymousStatus: Record<string, number> = {
  // This test runs no runtime (no pool, no relay): not ready — but never 401.
  "GET /api/v1/health/ready": 503,
  // No state: "Authorization not completed", nothing changed.
  "GET /oauth/callback": 400,
  // Switchboard is no authorization server: there is nothing there, for anyone.
  "GET /oauth/no-authorization-server": 404,
  "POST /oauth/no-authorization-server": 404,
  // Metrics are off by default: not there at all.
  "GET /metrics": 404,
};
const publicActions: Record<string, string> = {
  signInAction: "signing in is how a session starts",
  completeSetupAction: "first run, before any account exists (guarded by needsSetup and the setup token)",
  acceptInvitationAction: "joining with an invitation link may create the account",
};
/**
 * Routes a principal's own gateway key may use, each for a stated reason. They still refuse a
 * gateway key that belongs to no principal (checked below like every route).
 */
const principalRoutes: Record<string, string> = {
  "POST /api/v1/calls": "agents call tools through the one governed path, authorized by their grants",
  "GET /api/v1/calls/[id]": "an agent reads its own call (another's is a 404)",
  "GET /api/v1/calls/[id]/wait": "an agent waits for its own call that needs approval",
};
/**
 * The MCP gateway speaks JSON-RPC, not the REST error shape: its refusals carry a JSON-RPC error
 * body (there is no request id yet, so `id: null`) and the same HTTP statuses. It takes API keys
 * only — a dashboard session is no credential there (a page must not drive tools as its viewer),
 * so a viewer's cookie is 401, not 403. A principal's key is let in: GET/DELETE answer 405
 * (stateless gateway), the junk POST 406 (no `Accept: application/json, text/event-stream`).
 */
const gatewayRoutes = new Set(["/mcp", "/mcp/discover", "/mcp/servers/[name]"]);

/** Reads a viewer may not make (every other read is open to members), each for a stated reason. */
const adminReads: Record<string, string> = {
  "GET /api/v1/invitations": "pending invitation links are the admins' business, as in Settings → Members",
  "GET /api/v1/audit": "the audit trail (who signed in from where) is for admins, as in Settings → Audit log",
  "GET /api/v1/instance":
    "the instance policy and its owners are for instance owners, whatever their workspace role (Settings → Instance)",
  "GET /api/v1/instance/policy": "the instance policy is for instance owners (Settings → Instance)",
  "GET /api/v1/instance/owners": "who owns the instance is for instance owners (Settings → Instance)",
  "GET /api/v1/webhooks":
    "where the workspace's notifications go (a Slack URL is itself a credential, even masked) is for admins (Settings → Webhooks)",
  "GET /api/v1/webhooks/[id]": "one webhook: for admins, as the list",
  "GET /api/v1/webhooks/[id]/deliveries":
    "the delivery log holds the payloads sent and the receivers' answers: for admins, as the webhooks",
};

/** Mutations a viewer may make, each for a stated reason. */
const viewerActions: Record<string, string> = {
  switchWorkspaceAction: "choosing among one's own workspaces changes nothing shared",
  signOutAction: "ending one's own session",
};

function findFiles(dir: string, matches: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findFiles(full, matches);
    return matches(entry.name) ? [full] : [];
  });
}

/** app/api/v1/servers/[name]/route.ts → /api/v1/servers/[name] (route groups dropped). */
const routePath = (file: string) =>
  `/${path.relative(appDir, path.dirname(file))}`.replace(/\/\([^)]+\)/g, "").replace(/\\/g, "/");

type RouteModule = Partial<
  Record<(typeof methods)[number], (req: Request, ctx: unknown) => Promise<Response>>
>;
type ActionModule = Record<string, unknown>;

const routes = findFiles(appDir, (name) => name === "route.ts").map((file) => ({
  file,
  path: routePath(file),
}));
const actionFiles = findFiles(appDir, (name) => name.endsWith("actions.ts"));

async function callRoute(
  mod: RouteModule,
  method: (typeof methods)[number],
  routeFile: string,
  headers: Headers,
) {
  const url = `http://127.0.0.1:3000${routePath(routeFile).replace(/\[(\w+)\]/g, "local-tools")}`;
  const params = Object.fromEntries([...routeFile.matchAll(/\[(\w+)\]/g)].map((m) => [m[1], "local-tools"]));
  const body =
    method === "GET" || method === "DELETE" ? undefined : JSON.stringify({ value: "x", name: "probe" });
  if (body) headers.set("content-type", "application/json");
  const handler = mod[method];
  if (!handler) throw new Error(`${method} missing`);
  return handler(new Request(url, { method, headers, body }), { params: Promise.resolve(params) });
}

async function callAction(fn: unknown, headers: Headers) {
  requestHeaders = headers;
  // Arguments are deliberately junk: authentication must be checked before input is looked at.
  return (await (fn as (...args: unknown[]) => Promise<{ ok: boolean; error?: { code: string } }>)("probe", {
    name: "probe",
  })) as { ok: boolean; error?: { code: string } };
}

describe("access control on every route and action", () => {
  let handle: ProcessDatabase;
  let viewerCookie: string;
  let gatewayKey: string;
  let principalKey: string;

  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
    viewerCookie = (await createTestOperator(handle, { email: "viewer@example.com", role: "viewer" })).cookie;
    gatewayKey = await createTestApiKey(handle, ["gateway"]);
    principalKey = (
      await createTestAgent(handle.db, { tenantId: handle.defaultTenant.id, name: "probe-agent" })
    ).key;
  });
  afterAll(async () => {
    await handle?.close();
    vi.unstubAllEnvs();
  });

  it("finds the app's route handlers and actions", () => {
    expect(routes.map((r) => r.path)).toContain("/api/v1/servers");
    expect(actionFiles.length).toBeGreaterThanOrEqual(3);
  });

  for (const route of routes) {
    it(`${route.path}: 401 without credentials, 403 for a viewer's mutations and a gateway-only key`, async () => {
      const mod = (await import(/* @vite-ignore */ route.file)) as RouteModule;
      const exported = methods.filter((m) => typeof mod[m] === "function");
      expect(exported.length).toBeGreaterThan(0);
      if (gatewayRoutes.has(route.path)) {
        for (const method of exported) await checkGatewayRoute(mod, method, route.file);
        return;
      }
      for (const method of exported) {
        const label = `${method} ${route.path}`;
        const anonymous = await callRoute(mod, method, route.file, new Headers());
        if (publicRoutes[label]) {
          expect(anonymous.status, label).toBe(anonymousStatus[label] ?? 200);
          continue;
        }
        expect(anonymous.status, label).toBe(401);
        expect((await anonymous.json()).error.code, label).toBe("unauthenticated");

        const asViewer = await callRoute(mod, method, route.file, new Headers({ cookie: viewerCookie }));
        if (method === "GET" && !adminReads[label]) expect([200, 404], label).toContain(asViewer.status);
        else expect(asViewer.status, label).toBe(403);

        const asGatewayKey = await callRoute(
          mod,
          method,
          route.file,
          new Headers({ authorization: `Bearer ${gatewayKey}` }),
        );
        expect(asGatewayKey.status, `${label} with a gateway-only key`).toBe(403);

        const asPrincipal = await callRoute(
          mod,
          method,
          route.file,
          new Headers({ authorization: `Bearer ${principalKey}` }),
        );
        // Let in, the junk probe is then refused for what it is (400, 404) — never 401/403.
        if (principalRoutes[label])
          expect([400, 404], `${label} with a principal's key`).toContain(asPrincipal.status);
        else expect(asPrincipal.status, `${label} with a principal's key`).toBe(403);
      }
    });
  }

  async function checkGatewayRoute(mod: RouteModule, method: (typeof methods)[number], file: string) {
    const label = `${method} ${routePath(file)}`;
    const anonymous = await callRoute(mod, method, file, new Headers());
    expect(anonymous.status, label).toBe(401);
    expect(anonymous.headers.get("www-authenticate"), label).toMatch(/^Bearer /);
    expect((await anonymous.json()).error.code, label).toBe(-32001);
    const asViewer = await callRoute(mod, method, file, new Headers({ cookie: viewerCookie }));
    expect(asViewer.status, `${label} with a session`).toBe(401);
    const asGatewayKey = await callRoute(
      mod,
      method,
      file,
      new Headers({ authorization: `Bearer ${gatewayKey}` }),
    );
    expect(asGatewayKey.status, `${label} with a gateway-only key`).toBe(403);
    const asPrincipal = await callRoute(
      mod,
      method,
      file,
      new Headers({ authorization: `Bearer ${principalKey}` }),
    );
    expect(asPrincipal.status, `${label} with a principal's key`).toBe(method === "POST" ? 406 : 405);
  }

  for (const file of actionFiles) {
    it(`${path.relative(process.cwd(), file)}: every action refuses anonymous callers and viewers`, async () => {
      const mod = (await import(/* @vite-ignore */ file)) as ActionModule;
      const actions = Object.entries(mod).filter(([, v]) => typeof v === "function");
      expect(actions.length).toBeGreaterThan(0);
      for (const [name, fn] of actions) {
        if (publicActions[name]) continue;
        const anonymous = await callAction(fn, new Headers());
        expect(anonymous, name).toMatchObject({ ok: false, error: { code: "unauthenticated" } });
        if (viewerActions[name]) continue;
        const asViewer = await callAction(fn, new Headers({ cookie: viewerCookie }));
        expect(asViewer, name).toMatchObject({ ok: false, error: { code: "forbidden" } });
      }
    });
  }
});
