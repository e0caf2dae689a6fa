import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import type { ReplicaList } from "@/lib/runtime/replica-list";
import { operation } from "../operation";
import { describes } from "../type-check";

/** The replicas sharing the database: each connects every server and answers any request. */

const replicaListSchema = describes<ReplicaList>()(
  z.object({
    self: z.string().meta({ description: "The replica that answered." }),
    replicas: z
      .array(
        z
          .object({
            id: z.string().meta({ description: "SWITCHBOARD_REPLICA_ID, or host:port." }),
            startedAt: z.string().meta({ description: "ISO 8601" }),
            heartbeatAt: z.string().meta({ description: "ISO 8601: written every 5 s while it runs." }),
            live: z.boolean().meta({
              description:
                "Its heartbeat is recent (within 20 s). A replica that stopped (SIGTERM) is not listed; one that crashed is listed as not live for a day.",
            }),
          })
          .meta({ id: "Replica" }),
      )
      .meta({ description: "Oldest start first." }),
  }),
);

export const replicaPaths: ZodOpenApiPathsObject = {
  "/api/v1/replicas": {
    get: operation("Health", {
      id: "listReplicas",
      summary: "The Switchboard replicas sharing this database, and which are live",
      description:
        "Each server's own state on each replica is in `GET /api/v1/servers/{name}` (`replicas`, `replicaSummary`). Replicas' addresses are not shown.",
      access: "read",
      responses: [{ status: 200, description: "The replicas.", schema: replicaListSchema }],
    }),
  },
};
