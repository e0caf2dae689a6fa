import { z } from "zod";
import { eventSchema } from "@/lib/events/event-types";
import type { EventPage } from "@/lib/events/history";
import { describes } from "../type-check";

/** The workspace's event history: every event type, as recorded. */

export const recordedEventSchema = z
  .intersection(
    eventSchema,
    z.object({
      id: z.number().meta({ description: "Monotonic: the cursor." }),
      tenantId: z.string(),
      createdAt: z.string(),
    }),
  )
  .meta({
    id: "Event",
    description: "Identities and outcomes — never tool arguments, results or secret values.",
  });

export const eventPageSchema = describes<EventPage>()(
  z.object({
    events: z.array(recordedEventSchema),
    hasMore: z.boolean().meta({ description: "More events exist in the direction of the page." }),
    cursor: z
      .object({ before: z.number().nullable(), after: z.number().nullable() })
      .meta({ description: "`before` pages further back, `after` continues forward." }),
  }),
);
