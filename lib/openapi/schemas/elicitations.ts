import { z } from "zod";
import { elicitationStatuses } from "@/db/schema";
import type { ElicitationDto } from "@/lib/elicitations/elicitation-dto";
import { describes } from "../type-check";

export const elicitationSchema = describes<ElicitationDto>()(
  z
    .object({
      id: z.string(),
      callId: z.string().meta({ description: "The call during which the server asked." }),
      tool: z.string().nullable(),
      serverId: z.string().nullable(),
      serverName: z.string(),
      message: z.string().meta({ description: "The server's question, as it wrote it." }),
      requestedSchema: z.record(z.string(), z.unknown()).meta({
        description:
          "The server's form: a flat object schema of text, number, whole-number, true/false and choice fields.",
      }),
      status: z.enum(elicitationStatuses),
      content: z
        .record(z.string(), z.unknown())
        .nullable()
        .meta({ description: "The values accepted with; null otherwise." }),
      decidedBy: z.string().nullable(),
      decidedAt: z.string().nullable(),
      expiresAt: z.string(),
      createdAt: z.string(),
    })
    .meta({ id: "Elicitation" }),
);
