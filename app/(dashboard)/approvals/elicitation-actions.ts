"use server";

import { z } from "zod";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { answerElicitation } from "@/lib/elicitations/answer-elicitation";
import type { ElicitationDto } from "@/lib/elicitations/types";
import { parseOrThrow } from "@/lib/validation";

const idParam = z.string().trim().min(1).max(100);

/** An operator answers a server's question; the service checks the answer against the server's form. */
export async function answerElicitationAction(
  id: string,
  answer: unknown,
): Promise<ActionResult<ElicitationDto>> {
  return runAction("decide", async ({ db, tenant, actor }) =>
    answerElicitation(db, {
      tenantId: tenant.id,
      id: parseOrThrow(idParam, id, "The question id"),
      input: answer,
      by: { kind: "operator", id: actor.userId, name: actor.name },
    }),
  );
}
