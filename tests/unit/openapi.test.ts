import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument, type OpenApiDocument } from "@/lib/openapi/document";
import { serverSchema } from "@/lib/openapi/schemas/servers";
import { describes } from "@/lib/openapi/type-check";
import type { ServerDto } from "@/lib/servers/server-dto";
import { renderWireTypes, wireTypesFile } from "@/scripts/generate-wire-types";

/*
 * The OpenAPI document against the routes that exist (found from the files, so a new route
 * cannot be left out of the reference), and the CLI's generated wire types against the document.
 */

const apiDir = path.join(process.cwd(), "app", "api", "v1");
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function findRouteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findRouteFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** app/api/v1/servers/[name]/route.ts → /api/v1/servers/{name} (OpenAPI's way to write a parameter). */
const openApiPath = (file: string) =>
  `/${path.relative(path.join(process.cwd(), "app"), path.dirname(file))}`
    .replace(/\\/g, "/")
    .replace(/\[(\w+)\]/g, "{$1}");

type RouteModule = Partial<Record<(typeof methods)[number], unknown>>;
type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

describe("the OpenAPI document", () => {
  let document: OpenApiDocument;
  let routes: Array<{ path: string; methods: string[] }>;

  beforeAll(async () => {
    document = buildOpenApiDocument();
    routes = await Promise.all(
      findRouteFiles(apiDir).map(async (file) => {
        const mod = (await import(/* @vite-ignore */ file)) as RouteModule;
        return { path: openApiPath(file), methods: methods.filter((m) => typeof mod[m] === "function") };
      }),
    );
  }, 60_000);

  const operationOf = (routePath: string, method: string) =>
    (document.paths?.[routePath] as Record<string, Operation> | undefined)?.[method.toLowerCase()];

  it("finds the route handlers", () => {
    expect(routes.map((r) => r.path)).toContain("/api/v1/servers/{name}");
    expect(routes.find((r) => r.path === "/api/v1/openapi.json")?.methods).toEqual(["GET"]);
  });

  it("has an operation for every method every route exports", () => {
    const missing = routes.flatMap((route) =>
      route.methods.filter((m) => !operationOf(route.path, m)).map((m) => `${m} ${route.path}`),
    );
    expect(missing).toEqual([]);
  });

  it("describes no operation that no route handles", () => {
    const handled = new Set(routes.flatMap((r) => r.methods.map((m) => `${m.toLowerCase()} ${r.path}`)));
    const described = Object.entries(document.paths ?? {}).flatMap(([p, item]) =>
      Object.keys(item as object)
        .filter((key) => (methods as readonly string[]).includes(key.toUpperCase()))
        .map((m) => `${m} ${p}`),
    );
    expect(described.filter((op) => !handled.has(op))).toEqual([]);
  });

  it("gives every operation a unique id, a tag, a summary, and the error shape for its refusals", () => {
    const ids = new Set<string>();
    for (const route of routes) {
      for (const method of route.methods) {
        const op = operationOf(route.path, method);
        const label = `${method} ${route.path}`;
        expect(op?.operationId, label).toBeTruthy();
        expect(ids.has(op?.operationId ?? ""), `${label}: duplicate id`).toBe(false);
        ids.add(op?.operationId ?? "");
        expect(op?.tags?.length, label).toBe(1);
        expect(op?.summary, label).toBeTruthy();
        const statuses = Object.keys(op?.responses ?? {});
        expect(
          statuses.some((s) => s.startsWith("2")),
          `${label}: a success`,
        ).toBe(true);
        for (const status of statuses.filter((s) => /^[45]/.test(s))) {
          expect(
            op?.responses?.[status]?.content?.["application/json"]?.schema,
            `${label} ${status}`,
          ).toEqual({
            // Readiness's 503 is its own answer, not a refusal: the same shape as its 200, naming what is down.
            $ref: `#/components/schemas/${label === "GET /api/v1/health/ready" ? "Readiness" : "Error"}`,
          });
        }
      }
    }
  });

  it("answers 401 and 403 on every route that needs a credential, and neither on the public ones", () => {
    for (const route of routes) {
      for (const method of route.methods) {
        const statuses = Object.keys(operationOf(route.path, method)?.responses ?? {});
        const isPublic = ["/api/v1/health", "/api/v1/health/ready", "/api/v1/openapi.json"].includes(
          route.path,
        );
        expect(statuses.includes("401"), `${method} ${route.path}`).toBe(!isPublic);
        expect(statuses.includes("403"), `${method} ${route.path}`).toBe(!isPublic);
      }
    }
  });

  it("renders request bodies from the routes' own schemas: limits and messages' rules included", () => {
    const body = (
      operationOf("/api/v1/calls", "POST") as { requestBody?: { content: Record<string, unknown> } }
    ).requestBody?.content["application/json"] as { schema: { properties: Record<string, unknown> } };
    expect(body.schema.properties.waitSeconds).toMatchObject({ maximum: 120, default: 0 });
    expect(document.components?.schemas?.ServerConfig).toMatchObject({ oneOf: expect.any(Array) });
  });

  it("describes the OAuth routes: the standing, Disconnect, and Connect with its optional body and failed step", () => {
    const statuses = (p: string, m: string) => Object.keys(operationOf(p, m)?.responses ?? {});
    const oauth = "/api/v1/servers/{name}/oauth";
    expect(statuses(oauth, "GET")).toEqual(["200", "401", "403", "404", "409"]);
    expect(statuses(oauth, "DELETE")).toEqual(["200", "401", "403", "404", "409"]);
    expect(statuses(`${oauth}/connect`, "POST")).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "409",
      "413",
      "415",
      "502",
    ]);
    const connect = operationOf(`${oauth}/connect`, "POST") as Operation & {
      requestBody?: { required: boolean; content: Record<string, { schema: { properties: object } }> };
      responses: Record<string, { description: string }>;
    };
    expect(connect.requestBody?.required).toBe(false);
    expect(Object.keys(connect.requestBody?.content["application/json"]?.schema.properties ?? {})).toEqual([
      "scope",
    ]);
    expect(connect.responses["502"]?.description).toMatch(/names the step/);
    expect(connect.responses["409"]?.description).toMatch(/does not use OAuth.*`conflict`/);
    expect(document.components?.schemas?.OAuthStatus).toMatchObject({
      properties: { status: { enum: ["not_connected", "connected", "needs_authorization"] } },
    });
    expect(JSON.stringify(document.components?.schemas?.Server)).toContain("needs-authorization");
  });

  it("shows no folder of the machine it was built on", () => {
    expect(JSON.stringify(document)).not.toContain(process.cwd());
  });

  it("is refused by the compiler when a response schema and its DTO type disagree", () => {
    // Each @ts-expect-error fails `tsc` if the check below it stops catching the mismatch.
    // @ts-expect-error a field of the DTO is missing
    describes<ServerDto>()(serverSchema.omit({ cwd: true }));
    // @ts-expect-error a field the DTO does not have
    describes<ServerDto>()(serverSchema.extend({ extra: z.string() }));
    // @ts-expect-error optional where the DTO's is required
    describes<ServerDto>()(serverSchema.extend({ cwd: z.string().nullable().optional() }));
    // @ts-expect-error another type
    describes<ServerDto>()(serverSchema.extend({ connectTimeoutMs: z.string() }));
    expect(describes<ServerDto>()(serverSchema)).toBe(serverSchema);
  });
});

describe("the CLI's wire types", () => {
  it("are what the generator writes from the current document (npm run generate:wire-types)", async () => {
    expect(readFileSync(wireTypesFile, "utf8")).toBe(await renderWireTypes());
  }, 60_000);
});
