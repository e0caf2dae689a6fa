import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { answerInputSchema } from "@/lib/elicitations/answer-elicitation";
import { type listElicitations, listElicitationsQuerySchema } from "@/lib/elicitations/list-elicitations";
import { operation, pathParams } from "../operation";
import { elicitationSchema } from "../schemas/elicitations";
import { describes } from "../type-check";

/** /api/v1/elicitations: a server's questions during a call whose caller could not answer them. */

const elicitationList = describes<Awaited<ReturnType<typeof listElicitations>>>()(
  z.object({ elicitations: z.array(elicitationSchema) }),
);

export const elicitationPaths: ZodOpenApiPathsObject = {
  "/api/v1/elicitations": {
    get: operation("Approvals", {
      id: "listElicitations",
      summary: "Servers' questions waiting for an operator, or answered",
      description:
        "When a server asks for input (elicitation/create, form mode) during the only call on its connection and that call's caller cannot answer — a REST, playground or CLI call, an agent without the elicitation capability, a client that went away — the question waits here, expiring like an approval. `pending`: oldest first; `answered`: most recently closed first.",
      access: "read",
      query: listElicitationsQuerySchema,
      responses: [{ status: 200, description: "Up to `limit` questions.", schema: elicitationList }],
    }),
  },
  "/api/v1/elicitations/{id}": {
    post: operation("Approvals", {
      id: "answerElicitation",
      summary: "Answer a server's question",
      description:
        "`accept` with `content` (values that fit the question's `requestedSchema`; a value that does not is a 400 naming the field), `decline`, or `cancel`. The server receives the answer at once; an expired or withdrawn question is cancelled for the server.",
      access: "decide",
      path: pathParams({ id: "The question's id." }),
      body: answerInputSchema,
      responses: [
        {
          status: 200,
          description: "The question with its answer.",
          schema: z.object({ elicitation: elicitationSchema }),
        },
      ],
      errors: [[409, "Already answered, expired, or the call ended: the message says which"]],
    }),
  },
};
