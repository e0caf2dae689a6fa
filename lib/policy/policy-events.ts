import type { Queryable } from "@/lib/db/client";
import type { SwitchboardEvent } from "@/lib/events/event-types";
import { recordEvent } from "@/lib/events/record-event";

/**
 * Records that something a call decision depends on changed (see `policy.changed`). Every change
 * site calls this after its write, so caches of every process and the gateway's sessions follow.
 */
export type PolicySubject = Extract<SwitchboardEvent, { type: "policy.changed" }>["subject"];

export async function recordPolicyChange(
  db: Queryable,
  params: { tenantId: string; subject: PolicySubject; subjectId?: string | null },
): Promise<void> {
  await recordEvent(db, {
    tenantId: params.tenantId,
    event: { type: "policy.changed", subject: params.subject, subjectId: params.subjectId ?? null },
  });
}
