import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { operation } from "../operation";
import { healthSchema } from "../schemas/settings";

/** What anyone may ask: is it up, and what is its API. */

export const healthPaths: ZodOpenApiPathsObject = {
  "/api/v1/health": {
    get: operation("Health", {
      id: "getHealth",
      summary: "Liveness: the process is up and its database reachable",
      access: "public",
      responses: [{ status: 200, description: "Up.", schema: healthSchema }],
      errors: [[500, "The database cannot be reached (`internal`)"]],
    }),
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
