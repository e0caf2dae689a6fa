import { REDACTED } from "@/lib/calls/scrub";
import { canonicalJson } from "@/lib/catalog/hashing";
import { isRecord } from "@/lib/is-record";

/**
 * The approver's edit over what they were shown (scrubbed), resolved against what the caller really
 * sent: wherever a value is as shown, the real one stays (a secret still reaches the tool); wherever
 * it changed, the approver's is taken. `placeholders` names each changed value that still holds
 * [redacted] — it would reach the tool as that literal text.
 */
export function mergeEditedArguments(
  edited: Record<string, unknown>,
  shown: Record<string, unknown>,
  real: Record<string, unknown>,
): { merged: Record<string, unknown>; placeholders: string[] } {
  const placeholders: string[] = [];
  const merged = keepUnchanged(edited, shown, real, [], placeholders) as Record<string, unknown>;
  return { merged, placeholders };
}

/** The edited value, with the caller's real value wherever the approver left the shown one. */
function keepUnchanged(
  edited: unknown,
  shown: unknown,
  real: unknown,
  path: string[],
  placeholders: string[],
): unknown {
  if (canonicalJson(edited) === canonicalJson(shown)) return real;
  if (isRecord(edited) && isRecord(shown) && isRecord(real)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(edited)) {
      // A field whose very name was a secret: the approver cannot say which field they mean.
      if (key.includes(REDACTED) && !Object.hasOwn(real, key)) {
        placeholders.push([...path, key].join("."));
        continue;
      }
      Object.defineProperty(out, key, {
        // Own keys only: a field named "__proto__" or "constructor" is a plain field, never Object's.
        value: Object.hasOwn(shown, key)
          ? keepUnchanged(
              value,
              shown[key],
              Object.hasOwn(real, key) ? real[key] : undefined,
              [...path, key],
              placeholders,
            )
          : keepUnchanged(value, undefined, undefined, [...path, key], placeholders),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    return out;
  }
  if (Array.isArray(edited) && Array.isArray(shown) && Array.isArray(real) && shown.length === real.length)
    return edited.map((item, i) =>
      keepUnchanged(item, shown[i], real[i], [...path, String(i)], placeholders),
    );
  if (holdsPlaceholder(edited)) placeholders.push(path.join(".") || "The arguments");
  return edited;
}

function holdsPlaceholder(value: unknown): boolean {
  if (typeof value === "string") return value.includes(REDACTED);
  if (Array.isArray(value)) return value.some(holdsPlaceholder);
  if (isRecord(value)) return Object.values(value).some(holdsPlaceholder);
  return false;
}
