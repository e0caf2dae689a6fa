import "server-only";
import { and, desc, eq, notInArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { type AgentRunStep, agentRuns, principals } from "@/db/schema";
import { type AuditActor, auditedBy, recordAudit } from "@/lib/auth/audit";
import { scrubValue } from "@/lib/calls/scrub";
import type { Database, Queryable } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { log } from "@/lib/observability/log";
import { processSingleton } from "@/lib/process-singleton";
import { parseOrThrow, whenMissing } from "@/lib/validation";
import { findModelConnection } from "./model-connections";
import { type Counters, type RunOutcome, runAgentLoop, type StepEvent } from "./run-loop";
import type { AgentRunDto } from "./types";

/**
 * Agent runs: started by an admin (REST, CLI, the Agent page), run in the background on the process
 * that took the request (run-loop), readable and cancellable from anywhere. Each step is written to
 * the run's row before its `agent_run.progressed` event, so a page that refetches on the event sees
 * it. A cancel is a conditional update from `running` to `cancelled`: whichever comes first, the
 * cancel or the loop's own ending, is the run's outcome, and the other changes nothing.
 */

export const PROMPT_MAX_CHARACTERS = 20_000;

const holdsNoNul = (value: string) => !value.includes("\0");

export const startAgentRunSchema = z.strictObject({
  principal: z
    .string(whenMissing("principal (a principal's name or id) is required."))
    .trim()
    .min(1)
    .refine(holdsNoNul, { error: "principal: no name or id holds a NUL character." }),
  model: z
    .string(whenMissing("model (a model connection's name or id) is required."))
    .trim()
    .min(1)
    .refine(holdsNoNul, { error: "model: no name or id holds a NUL character." }),
  prompt: z
    .string(whenMissing("A prompt is required."))
    .trim()
    .min(1, { error: "A prompt is required." })
    .max(PROMPT_MAX_CHARACTERS, {
      error: `A prompt is limited to ${PROMPT_MAX_CHARACTERS.toLocaleString("en")} characters.`,
    })
    // Pasted text may hold what PostgreSQL cannot store (NUL, half a surrogate pair): U+FFFD.
    .transform((prompt) => scrubValue(prompt, [])),
  maxRounds: z
    .number({ error: "maxRounds is a whole number from 1 to 10." })
    .int({ error: "maxRounds is a whole number from 1 to 10." })
    .min(1, { error: "maxRounds is a whole number from 1 to 10." })
    .max(10, { error: "maxRounds is at most 10." })
    .default(3),
  maxToolCalls: z
    .number({ error: "maxToolCalls is a whole number from 1 to 50." })
    .int({ error: "maxToolCalls is a whole number from 1 to 50." })
    .min(1, { error: "maxToolCalls is a whole number from 1 to 50." })
    .max(50, { error: "maxToolCalls is at most 50." })
    .default(10),
  timeoutSeconds: z
    .number({ error: "timeoutSeconds is a whole number from 5 to 3600." })
    .int({ error: "timeoutSeconds is a whole number from 5 to 3600." })
    .min(5, { error: "timeoutSeconds is at least 5." })
    .max(3600, { error: "timeoutSeconds is at most 3600." })
    .default(300),
  maxTokens: z
    .number({ error: "maxTokens is a whole number from 1,000 to 2,000,000." })
    .int({ error: "maxTokens is a whole number from 1,000 to 2,000,000." })
    .min(1000, { error: "maxTokens is at least 1,000." })
    .max(2_000_000, { error: "maxTokens is at most 2,000,000." })
    .default(200_000),
});

/** The runs this process is running, for a cancel to reach their in-flight call. */
const running = processSingleton("AgentRuns", () => new Map<string, AbortController>());

type RunRow = typeof agentRuns.$inferSelect;

const toDto = (row: RunRow): AgentRunDto => ({
  id: row.id,
  principal: { id: row.principalId, name: row.principalName },
  model: row.modelName,
  modelConnectionId: row.modelConnectionId,
  prompt: row.prompt,
  limits: row.limits,
  status: row.status,
  stopReason: row.stopReason,
  steps: row.steps,
  rounds: row.rounds,
  toolCalls: row.toolCalls,
  tokens: row.tokens,
  startedBy: row.startedBy,
  createdAt: row.createdAt.toISOString(),
  endedAt: row.endedAt?.toISOString() ?? null,
});

/**
 * The loop ends every run by its time limit, so a run still `running` a minute past it was left by
 * a process that stopped (a crash, a kill, a deploy): ended as failed, saying so, before a reader
 * sees it — a page or `agent run` waiting on it stops waiting. With `all` (a PGlite folder at
 * start: no other process can be running one) every run left running is ended at once.
 */
export async function endStrandedRuns(
  db: Queryable,
  params: { tenantId?: string; all?: boolean } = {},
): Promise<number> {
  const stopReason = "Switchboard stopped while the run was going on; it was not finished.";
  const mine = [...running.keys()];
  const ended = await db
    .update(agentRuns)
    .set({ status: "failed", stopReason, endedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(agentRuns.status, "running"),
        params.tenantId ? eq(agentRuns.tenantId, params.tenantId) : undefined,
        mine.length > 0 ? notInArray(agentRuns.id, mine) : undefined,
        params.all
          ? undefined
          : sql`${agentRuns.createdAt} + make_interval(secs => (${agentRuns.limits}->>'timeoutSeconds')::int + ${STRANDED_GRACE_SECONDS}) < now()`,
      ),
    )
    .returning({ id: agentRuns.id, tenantId: agentRuns.tenantId });
  for (const run of ended)
    await recordEvent(db, {
      tenantId: run.tenantId,
      event: { type: "agent_run.finished", runId: run.id, status: "failed", stopReason },
    });
  return ended.length;
}

/** Past its time limit, how long a run's own loop gets to record its ending before a reader does. */
const STRANDED_GRACE_SECONDS = 60;

export async function listAgentRuns(db: Queryable, params: { tenantId: string }): Promise<AgentRunDto[]> {
  await endStrandedRuns(db, { tenantId: params.tenantId });
  const rows = await db
    .select()
    .from(agentRuns)
    .where(eq(agentRuns.tenantId, params.tenantId))
    .orderBy(desc(agentRuns.createdAt))
    .limit(100);
  return rows.map(toDto);
}

export async function getAgentRun(
  db: Queryable,
  params: { tenantId: string; id: string },
): Promise<AgentRunDto> {
  await endStrandedRuns(db, { tenantId: params.tenantId });
  const [row] = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.tenantId, params.tenantId), eq(agentRuns.id, params.id)));
  if (!row) throw new AppError("not_found", "No agent run with this id in this workspace.");
  return toDto(row);
}

/** Starts a run and returns it as started; the loop goes on in the background. */
export async function startAgentRun(
  db: Database,
  params: { tenantId: string; input: unknown; by: AuditActor; startedBy: string },
): Promise<AgentRunDto> {
  const { tenantId } = params;
  const input = parseOrThrow(startAgentRunSchema, params.input, "The run");
  const [principal] = await db
    .select({ id: principals.id, name: principals.name })
    .from(principals)
    .where(
      and(
        eq(principals.tenantId, tenantId),
        or(eq(principals.id, input.principal), eq(principals.name, input.principal)),
      ),
    );
  if (!principal)
    throw new AppError("validation", `No principal "${input.principal}" in this workspace.`, {
      fieldErrors: { principal: [`No principal "${input.principal}".`] },
    });
  const connection = await findModelConnection(db, { tenantId, ref: input.model }).catch(() => {
    throw new AppError("validation", `No model connection "${input.model}" in this workspace.`, {
      fieldErrors: { model: [`No model connection "${input.model}".`] },
    });
  });
  const limits = {
    maxRounds: input.maxRounds,
    maxToolCalls: input.maxToolCalls,
    timeoutSeconds: input.timeoutSeconds,
    maxTokens: input.maxTokens,
  };
  const steps: AgentRunStep[] = [{ kind: "prompt", text: input.prompt }];
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(agentRuns)
      .values({
        tenantId,
        principalId: principal.id,
        principalName: principal.name,
        modelConnectionId: connection.id,
        modelName: connection.name,
        prompt: input.prompt,
        limits,
        steps,
        startedBy: params.startedBy,
      })
      .returning();
    if (!inserted) throw new AppError("internal", "The run could not be stored.");
    await recordAudit(tx, {
      tenantId,
      action: "agent_run.started",
      ...auditedBy(params.by),
      subject: inserted.id,
      detail: `as ${principal.name} on ${connection.name} (${connection.model})`,
    });
    await recordEvent(tx, {
      tenantId,
      event: {
        type: "agent_run.started",
        runId: inserted.id,
        principalId: principal.id,
        principalName: principal.name,
        model: connection.name,
      },
    });
    return inserted;
  });

  const controller = new AbortController();
  running.set(row.id, controller);
  void runAgentLoop(db, {
    tenantId,
    principal,
    connection,
    prompt: input.prompt,
    limits,
    signal: controller.signal,
    recorder: recorderFor(db, { tenantId, runId: row.id, steps }),
  })
    .catch((error: unknown): RunOutcome => {
      log.error({ err: error, runId: row.id }, "an agent run failed");
      return { status: "failed", stopReason: `Switchboard could not go on: ${(error as Error).message}` };
    })
    .then((outcome) => finishRun(db, { tenantId, runId: row.id, outcome }))
    .catch((error: unknown) =>
      log.error({ err: error, runId: row.id }, "an agent run's ending was not recorded"),
    )
    .finally(() => running.delete(row.id));
  return toDto(row);
}

/** Cancels a running run: its in-flight call is cancelled downstream, a waiting one withdrawn. */
export async function cancelAgentRun(
  db: Database,
  params: { tenantId: string; id: string; by: AuditActor; byName: string },
): Promise<AgentRunDto> {
  const stopReason = `cancelled by ${params.byName}`;
  const [row] = await db
    .update(agentRuns)
    .set({ status: "cancelled", stopReason, endedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(agentRuns.tenantId, params.tenantId),
        eq(agentRuns.id, params.id),
        eq(agentRuns.status, "running"),
      ),
    )
    .returning();
  if (!row) {
    const current = await getAgentRun(db, params);
    throw new AppError("conflict", `The run already ended (${current.status.replace("_", " ")}).`);
  }
  running.get(row.id)?.abort(stopReason);
  await recordAudit(db, {
    tenantId: params.tenantId,
    action: "agent_run.cancelled",
    ...auditedBy(params.by),
    subject: row.id,
  });
  await recordEvent(db, {
    tenantId: params.tenantId,
    event: { type: "agent_run.finished", runId: row.id, status: "cancelled", stopReason },
  });
  return toDto(row);
}

function recorderFor(db: Database, params: { tenantId: string; runId: string; steps: AgentRunStep[] }) {
  const { tenantId, runId, steps } = params;
  const write = async (counters: Counters, event: StepEvent) => {
    await db
      .update(agentRuns)
      .set({ steps: [...steps], ...counters, updatedAt: new Date() })
      .where(and(eq(agentRuns.tenantId, tenantId), eq(agentRuns.id, runId), eq(agentRuns.status, "running")));
    await recordEvent(db, {
      tenantId,
      event: {
        type: "agent_run.progressed",
        runId,
        step: event.step,
        round: event.round,
        stepCallId: event.callId,
      },
    });
  };
  // A model's words and a tool's result may hold what PostgreSQL cannot store (NUL, half a
  // surrogate pair): each step is kept as U+FFFD there, once, or the run's row could never be
  // written again.
  const storable = (step: AgentRunStep) => scrubValue(step, []);
  return {
    async addStep(step: AgentRunStep, counters: Counters, event: StepEvent) {
      steps.push(storable(step));
      await write(counters, event);
    },
    async replaceLastStep(step: AgentRunStep, counters: Counters, event: StepEvent) {
      steps[steps.length - 1] = storable(step);
      await write(counters, event);
    },
    async isCancelled() {
      const [row] = await db
        .select({ status: agentRuns.status })
        .from(agentRuns)
        .where(and(eq(agentRuns.tenantId, tenantId), eq(agentRuns.id, runId)));
      return row?.status === "cancelled";
    },
  };
}

async function finishRun(db: Database, params: { tenantId: string; runId: string; outcome: RunOutcome }) {
  const { tenantId, runId } = params;
  // A stop reason may quote the model's answer: stored as any step is (see the recorder).
  const outcome = { ...params.outcome, stopReason: scrubValue(params.outcome.stopReason, []) };
  const [row] = await db
    .update(agentRuns)
    .set({
      status: outcome.status,
      stopReason: outcome.stopReason,
      endedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(agentRuns.tenantId, tenantId), eq(agentRuns.id, runId), eq(agentRuns.status, "running")))
    .returning({ id: agentRuns.id });
  // Not running any more: a cancel got there first, and recorded the ending.
  if (!row) return;
  await recordEvent(db, {
    tenantId,
    event: { type: "agent_run.finished", runId, status: outcome.status, stopReason: outcome.stopReason },
  });
}
