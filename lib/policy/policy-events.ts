import { AsyncLocalStorage } from "node:async_hooks";
import { type AuditActor, changedByOf } from "@/lib/auth/audit";
import type { Queryable } from "@/lib/db/client";
import type { ChangedBy, SwitchboardEvent } from "@/lib/events/event-types";
import { recordEvent } from "@/lib/events/record-event";
import { processSingleton } from "@/lib/process-singleton";

/**
 * Records that something a call decision depends on changed (see `policy.changed`). Every change
 * site calls this after its write, so caches of every process and the gateway's sessions follow.
 * The event says who made the change (`by`).
 */
export type PolicySubject = Extract<SwitchboardEvent, { type: "policy.changed" }>["subject"];

/**
 * Who is changing policy, for change sites that do not pass `by` themselves — a service owned by
 * another module (lib/catalog's updateTool) run inside `changingAs`. An explicit `by` wins.
 */
const changers = processSingleton("PolicyChangers", () => new AsyncLocalStorage<ChangedBy>());

export function changingAs<T>(by: AuditActor, change: () => Promise<T>): Promise<T> {
  return changers.run(changedByOf(by), change);
}

export async function recordPolicyChange(
  db: Queryable,
  params: {
    tenantId: string;
    subject: PolicySubject;
    subjectId?: string | null;
    /** a tool's server, so caches drop that server's part of the catalog only */
    serverId?: string;
    by?: AuditActor;
  },
): Promise<void> {
  const by = params.by !== undefined ? changedByOf(params.by) : changers.getStore();
  await recordEvent(db, {
    tenantId: params.tenantId,
    event: {
      type: "policy.changed",
      subject: params.subject,
      subjectId: params.subjectId ?? null,
      ...(params.serverId ? { serverId: params.serverId } : {}),
      ...(by ? { by } : {}),
    },
  });
}
