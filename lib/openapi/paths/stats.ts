import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { callStatsQuerySchema, type getCallStats, statsWindows } from "@/lib/calls/call-stats";
import { operation } from "../operation";
import { describes } from "../type-check";

/** /api/v1/stats/calls: what the Overview's and a server page's numbers are made of. */

const rates = {
  calls: z.number().int().meta({ description: "Calls requested in the window, whatever their outcome." }),
  errors: z.number().int().meta({ description: "Calls that failed, or whose tool answered with an error." }),
  callsPerMinute: z.number().meta({ description: "`calls` divided by the window's minutes." }),
  errorRate: z.number().meta({ description: "`errors / calls`, 0 to 1 (0 without calls)." }),
  p50Ms: z.number().nullable().meta({ description: "Median run time in ms; null when no call ran." }),
  p95Ms: z
    .number()
    .nullable()
    .meta({ description: "95th percentile run time in ms; null when no call ran." }),
};

const callStatsSchema = describes<Awaited<ReturnType<typeof getCallStats>>>()(
  z.object({
    window: z.enum(Object.keys(statsWindows) as [keyof typeof statsWindows]),
    windowMinutes: z.number().int(),
    since: z.string().meta({ description: "The window's start (ISO 8601)." }),
    totals: z.object(rates),
    servers: z
      .array(z.object({ serverId: z.string().nullable(), serverName: z.string().nullable(), ...rates }))
      .meta({ description: "Per server, busiest first. A deleted server's calls have `serverName: null`." }),
    busiestAgents: z
      .array(
        z.object({
          principalId: z.string(),
          principalName: z.string().nullable(),
          calls: z.number().int(),
          errors: z.number().int(),
        }),
      )
      .meta({
        description: "Principals by calls in the window, at most 10; operators' own calls are not listed.",
      }),
  }),
);

export const statsPaths: ZodOpenApiPathsObject = {
  "/api/v1/stats/calls": {
    get: operation("Calls", {
      id: "getCallStats",
      summary: "Call rates, error rates, p50/p95 latency and the busiest agents over a recent window",
      description:
        "Read from the call history, so it needs no metrics pipeline. Latency is the run time (the downstream request), not the approval wait. `server` narrows everything to one server (404 if there is none of that name).",
      access: "read",
      query: callStatsQuerySchema.extend({
        window: callStatsQuerySchema.shape.window.meta({ description: "15m, 1h (default), 6h or 24h." }),
      }),
      responses: [{ status: 200, description: "The statistics.", schema: callStatsSchema }],
      errors: [[404, "No server of that name in the workspace"]],
    }),
  },
};
