import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { operation } from "../operation";
import { healthSchema, readinessSchema } from "../schemas/settings";

/** What anyone may ask: is it up, can it serve, and what is its API. */

const readiness = operation("Health", {
  id: "getReadiness",
  summary: "Readiness: the database, the event relay and the connection pool are all up",
  description:
    "A process started while its database is down keeps trying and answers 503 until it can serve; a running one answers 503 while its database is unreachable. `checks` names what is down and why.",
  access: "public",
  responses: [{ status: 200, description: "Ready to serve.", schema: readinessSchema }],
});
// 503 answers the same shape as 200 (not the Error shape): a probe and a person both read `checks`.
(readiness.responses as Record<string, unknown>)["503"] = {
  description: "Starting, or degraded: `checks` says which dependency is down and why.",
  content: { "application/json": { schema: readinessSchema } },
};

export const healthPaths: ZodOpenApiPathsObject = {
  "/api/v1/health": {
    get: operation("Health", {
      id: "getHealth",
      summary: "Liveness: the process is up and answers",
      description:
        "Never asks the database: a process waiting for its database is alive, and restarting it would not bring the database back. Point a liveness probe here and a readiness probe at `/api/v1/health/ready`.",
      access: "public",
      responses: [{ status: 200, description: "Up.", schema: healthSchema }],
    }),
  },
  "/api/v1/health/ready": {
    get: readiness,
  },
  "/api/v1/openapi.json": {
    get: operation("Health", {
      id: "getOpenApiDocument",
      summary: "This API's OpenAPI 3.1 document",
      access: "public",
      responses: [
        {
          status: 200,
          description: "The document this reference is made from.",
          schema: z.record(z.string(), z.unknown()).meta({ description: "An OpenAPI 3.1 document." }),
        },
      ],
    }),
  },
};
