import { z } from "zod";
import { effectClasses } from "@/db/schema";
import type { GovernedToolDto } from "@/lib/catalog/governed-tools";
import type { CatalogDiff } from "@/lib/catalog/hashing";
import type { CatalogEntryDto, SnapshotDto, ToolDto } from "@/lib/catalog/read-catalog";
import { approvalRules } from "@/lib/policy/approval-gate";
import { describes } from "../type-check";

/** What servers offer, as stored: tools (and how admins govern them), resources, prompts, snapshots. */

const kindDiffSchema = z.object({
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});

export const catalogDiffSchema = describes<CatalogDiff>()(
  z
    .object({
      tools: kindDiffSchema,
      resources: kindDiffSchema,
      resourceTemplates: kindDiffSchema,
      prompts: kindDiffSchema,
    })
    .meta({ id: "CatalogDiff", description: "Names added, removed and changed, per kind." }),
);

export const effectSchema = z
  .enum(effectClasses)
  .meta({ id: "Effect", description: "What a tool does to the world, as an admin classified it." });

const definitionSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: "The definition as the server announced it (MCP)." });

const toolFields = {
  id: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  name: z.string(),
  gatewayName: z.string().meta({ description: "`<server>__<tool>`: the name callers use." }),
  title: z.string().nullable(),
  description: z.string().nullable(),
  definition: definitionSchema,
  definitionHash: z.string(),
  effect: effectSchema
    .nullable()
    .meta({ description: "null: never classified (enforced as external-write)." }),
  approvalRule: z.enum(approvalRules),
  enabled: z.boolean(),
  quarantine: z
    .object({
      at: z.string(),
      by: z.string().nullable().meta({ description: "Who set it (a person's or a key's name)." }),
      reason: z.string().nullable(),
    })
    .nullable()
    .meta({
      description:
        "Set: every call of the tool is refused (403) until an admin reviews it and clears this. null: not quarantined.",
    }),
  removedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  conflictsWith: z
    .array(z.object({ serverName: z.string(), toolName: z.string() }))
    .meta({ description: "Other live tools exposed under the same gateway name: a conflict to resolve." }),
};

export const toolSchema = describes<ToolDto>()(z.object(toolFields).meta({ id: "Tool" }));

const nullableFlag = z.boolean().nullable();

export const governedToolSchema = describes<GovernedToolDto>()(
  z
    .object({
      ...toolFields,
      enforcedEffect: effectSchema.meta({
        description: "The admin's class, or external-write while unclassified.",
      }),
      isClassified: z.boolean(),
      hints: z
        .object({
          readOnlyHint: nullableFlag,
          destructiveHint: nullableFlag,
          idempotentHint: nullableFlag,
          openWorldHint: nullableFlag,
        })
        .meta({ description: "The server's own annotations: untrusted, shown for review." }),
      suggestedEffect: effectSchema.meta({ description: "What the hints suggest; never enforced." }),
      serverEnabled: z.boolean(),
      serverStatus: z.string(),
      recentCrashes: z.number().meta({
        description: "How often its server's process exited during a call of it in the last 24 hours.",
      }),
      isQuarantineSuggested: z.boolean().meta({
        description:
          "It crashed its server repeatedly and is not quarantined: a suggestion, the admin decides.",
      }),
    })
    .meta({ id: "GovernedTool" }),
);

export const catalogEntrySchema = describes<CatalogEntryDto>()(
  z
    .object({
      id: z.string(),
      serverId: z.string(),
      kind: z.enum(["resource", "resource-template", "prompt"]),
      key: z.string().meta({ description: "The uri, uri template or prompt name." }),
      definition: definitionSchema,
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: "CatalogEntry" }),
);

export const snapshotSchema = describes<SnapshotDto>()(
  z
    .object({
      id: z.string(),
      serverId: z.string(),
      hash: z.string(),
      takenAt: z.string(),
      diff: catalogDiffSchema.meta({ description: "Against the snapshot before it." }),
      counts: z.object({
        tools: z.number(),
        resources: z.number(),
        resourceTemplates: z.number(),
        prompts: z.number(),
      }),
    })
    .meta({ id: "CatalogSnapshot" }),
);
