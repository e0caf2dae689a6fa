import { z } from "zod";
import { type Actor, auditActorOf } from "@/lib/auth/actor";
import { readJsonBody } from "@/lib/http/read-json";
import { parseOrThrow } from "@/lib/validation";
import type { Starter } from "./authorization";

/** POST …/oauth/connect: an optional body naming the scopes to ask for (default: configured + needed). */
export const connectRequestSchema = z.strictObject(
  {
    scope: z
      .string()
      .trim()
      .min(1, { error: "scope must not be empty; leave it out to ask for the usual scopes." })
      .max(1000, { error: "scope is limited to 1000 characters." })
      .regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, {
        error: 'scope is a space-separated list of scope names (RFC 6749 §3.3), e.g. "repo read:org".',
      })
      .optional(),
  },
  { error: 'Send a JSON object, e.g. {"scope": "repo"}, or no body.' },
);

export async function readConnectRequest(req: Request): Promise<z.infer<typeof connectRequestSchema>> {
  const hasBody =
    req.headers.get("content-type") !== null || Number(req.headers.get("content-length") ?? 0) > 0;
  return parseOrThrow(connectRequestSchema, hasBody ? await readJsonBody(req) : {});
}

/** Who started an authorization: the callback must come back to the same person (a key: its creator). */
export function starterOf(actor: Actor): Starter {
  return actor.kind === "operator"
    ? { userId: actor.userId, name: actor.name, by: auditActorOf(actor) }
    : { userId: actor.personId, name: actor.keyName, by: auditActorOf(actor) };
}
