import { and, eq, isNotNull } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import type { CallView } from "@/lib/calls/call-view";
import type { Queryable } from "@/lib/db/client";

/*
 * "No self-approval" compares people, not credentials. A person is behind what they do in the
 * dashboard and behind every key they created: their own admin key, and the keys of a principal —
 * a call a principal made may have come through any of its keys (the call does not record which),
 * so everyone who created one of them counts as behind it. A key nobody created (the bootstrap
 * key) has no person behind it.
 */

/** Who decides: an operator in the dashboard, or an API key. */
export type Decider = { kind: "operator" | "api_key"; id: string };

export async function personBehindDecider(
  db: Queryable,
  params: { decider: Decider },
): Promise<string | null> {
  const { decider } = params;
  if (decider.kind === "operator") return decider.id;
  const [key] = await db
    .select({ createdBy: apiKeys.createdBy })
    .from(apiKeys)
    .where(eq(apiKeys.id, decider.id));
  return key?.createdBy ?? null;
}

/** The people behind a call: its operator, or the creators of its principal's keys (revoked ones too). */
export async function peopleBehindCall(
  db: Queryable,
  params: { tenantId: string; view: CallView },
): Promise<string[]> {
  const { call } = params.view;
  if (call.requesterKind === "operator") return [call.requesterId];
  const rows = await db
    .selectDistinct({ createdBy: apiKeys.createdBy })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.tenantId, params.tenantId),
        eq(apiKeys.principalId, call.requesterId),
        isNotNull(apiKeys.createdBy),
      ),
    );
  return rows.flatMap((row) => (row.createdBy ? [row.createdBy] : []));
}
