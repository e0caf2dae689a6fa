import { z } from "zod";

/**
 * Every event Switchboard records, as one discriminated union. Events carry identities and
 * outcomes — never tool arguments, results or secret values.
 */
const connectionState = z.enum(["disconnected", "connecting", "ready", "degraded", "crash-loop", "disabled"]);
const serverRef = { serverId: z.string(), serverName: z.string() };
const listDiff = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});

export const eventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("server.state_changed"),
    ...serverRef,
    from: connectionState,
    to: connectionState,
    error: z.string().optional(),
  }),
  z.object({
    type: z.literal("server.process_exited"),
    ...serverRef,
    pid: z.number().optional(),
    exitCode: z.number().nullable(),
    signal: z.string().nullable(),
  }),
  z.object({
    type: z.literal("server.health_checked"),
    ...serverRef,
    ok: z.boolean(),
    latencyMs: z.number().nullable(),
    error: z.string().optional(),
  }),
  z.object({
    type: z.literal("catalog.changed"),
    ...serverRef,
    snapshotId: z.string().nullable(),
    diff: z.object({ tools: listDiff, resources: listDiff, resourceTemplates: listDiff, prompts: listDiff }),
  }),
  z.object({ type: z.literal("catalog.problem"), ...serverRef, problems: z.array(z.string()) }),
]);

export type SwitchboardEvent = z.infer<typeof eventSchema>;
export type EventType = SwitchboardEvent["type"];

/** A recorded event: the payload plus its monotonic id, workspace and time. */
export type RecordedEvent = SwitchboardEvent & { id: number; tenantId: string; createdAt: string };
