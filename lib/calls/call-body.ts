import { z } from "zod";

/** POST /api/v1/calls body: the REST face of executeToolCall. */
export const postCallBodySchema = z.strictObject({
  tool: z
    .string({ error: "tool is required: the gateway name, e.g. local-tools__echo." })
    .trim()
    .min(1)
    .max(200),
  arguments: z.record(z.string(), z.unknown(), { error: "arguments must be a JSON object." }).default({}),
  idempotencyKey: z.string().trim().min(1).max(200).optional(),
  waitSeconds: z.number().min(0).max(120, { error: "Wait at most 120 seconds; then use /wait." }).default(0),
});

export const waitQuerySchema = z.strictObject({
  timeoutSeconds: z.coerce
    .number()
    .min(0)
    .max(120, { error: "Wait at most 120 seconds per request." })
    .default(30),
});
