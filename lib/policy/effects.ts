import { type EffectClass, effectClasses } from "@/db/schema";

/**
 * Effect classes, from least to most risky. The enforced effect of a tool is what an admin set;
 * a tool nobody classified is `external-write` (deny by default: it may reach the outside world).
 * A server's own annotations are hints from an untrusted party: shown beside the effect, and used
 * to suggest a class to the admin, but never enforced and never able to lower anything.
 */

export const UNCLASSIFIED_EFFECT: EffectClass = "external-write";
export { type EffectClass, effectClasses };

export type ToolHints = {
  readOnlyHint: boolean | null;
  destructiveHint: boolean | null;
  idempotentHint: boolean | null;
  openWorldHint: boolean | null;
};

export function effectiveEffect(tool: { effect: EffectClass | null }): EffectClass {
  return tool.effect ?? UNCLASSIFIED_EFFECT;
}

/** The MCP annotations of a tool definition, each only when the server sent a real boolean. */
export function readHints(definition: Record<string, unknown>): ToolHints {
  const raw = definition.annotations;
  const annotations = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const flag = (key: keyof ToolHints) => (typeof annotations[key] === "boolean" ? annotations[key] : null);
  return {
    readOnlyHint: flag("readOnlyHint"),
    destructiveHint: flag("destructiveHint"),
    idempotentHint: flag("idempotentHint"),
    openWorldHint: flag("openWorldHint"),
  };
}

/**
 * What the hints claim, read with MCP's defaults (destructive and open-world unless said
 * otherwise): a suggestion for the admin's review, nothing more.
 */
export function suggestEffect(hints: ToolHints): EffectClass {
  if (hints.readOnlyHint === true) return "read";
  if (hints.destructiveHint !== false) return "destructive";
  if (hints.openWorldHint !== false) return "external-write";
  return "write";
}

export function isEffectClass(value: unknown): value is EffectClass {
  return typeof value === "string" && (effectClasses as readonly string[]).includes(value);
}
