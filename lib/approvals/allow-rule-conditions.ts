import type { AllowRuleCondition } from "@/db/schema";

/**
 * The argument conditions of an allow rule, and the one place its patterns are checked and run.
 *
 * Conditions are compared with the arguments as stored — scrubbed, secret values replaced — because
 * that is what the approver saw when making the rule: a rule must not depend on a secret nobody
 * could read, and a pattern must not become a way to probe one.
 *
 * A pattern is written by a workspace member and runs on the server for every matching call, so it
 * is held to a subset of JavaScript regular expressions whose matching cannot blow up: no
 * backreferences, lookarounds or named groups, no quantified groups (`(a+)+`), at most two
 * quantifiers, at most 200 characters; and it is tried on at most 1024 characters of a value (a
 * longer value never matches). Backtracking over one anchored match is then at most quadratic in
 * those 1024 characters. A pattern matches the whole value (it is anchored), so `/tmp/.*` does not
 * let `/etc/passwd#/tmp/` through.
 */

export const MAX_PATTERN_LENGTH = 200;
export const MAX_TESTED_LENGTH = 1024;
const MAX_QUANTIFIERS = 2;

export type PatternCheck = { ok: true; regex: RegExp } | { ok: false; reason: string };

/** Compiles a pattern of the safe subset, or says what is wrong with it. */
export function compileSafePattern(pattern: string): PatternCheck {
  if (pattern.length === 0) return { ok: false, reason: "The pattern is empty." };
  if (pattern.length > MAX_PATTERN_LENGTH)
    return { ok: false, reason: `Keep the pattern under ${MAX_PATTERN_LENGTH} characters.` };
  const unsafe = findUnsafeConstruct(pattern);
  if (unsafe) return { ok: false, reason: unsafe };
  try {
    return { ok: true, regex: new RegExp(`^(?:${pattern})$`, "u") };
  } catch (error) {
    return { ok: false, reason: `The pattern does not compile: ${(error as Error).message}.` };
  }
}

/** Scans the pattern (escapes and character classes skipped) for what could make matching slow. */
function findUnsafeConstruct(pattern: string): string | undefined {
  let quantifiers = 0;
  let previous: "atom" | "group" | "quantifier" | "none" = "none";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[1-9k]/.test(next)) return "Backreferences are not allowed in a pattern.";
      i++;
      previous = "atom";
    } else if (char === "[") {
      i = endOfClass(pattern, i);
      previous = "atom";
    } else if (char === "(") {
      if (pattern[i + 1] === "?" && pattern[i + 2] !== ":")
        return "Lookarounds and named groups are not allowed in a pattern; use (?:…) for a group.";
      previous = "none";
    } else if (char === ")") {
      previous = "group";
    } else if (char === "*" || char === "+" || char === "?" || char === "{") {
      // A `?` after a quantifier makes it lazy: still one quantifier.
      if (char === "?" && previous === "quantifier") continue;
      if (char === "{" && !/^\{\d+(,\d*)?\}/.test(pattern.slice(i))) {
        previous = "atom";
        continue;
      }
      if (previous === "group")
        return "A group may not be repeated (as in (a+)+): repeat single characters or classes only.";
      quantifiers++;
      if (quantifiers > MAX_QUANTIFIERS)
        return `Use at most ${MAX_QUANTIFIERS} repetitions (*, +, ?, {n,m}) in a pattern.`;
      if (char === "{") i = pattern.indexOf("}", i);
      previous = "quantifier";
    } else {
      previous = "atom";
    }
  }
  return undefined;
}

function endOfClass(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]" && i > start + 1) return i;
  }
  return pattern.length;
}

/** What a condition compares: a string as it is, anything else as its JSON. */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Whether every condition holds for the (scrubbed) arguments; a missing field never matches. */
export function conditionsHold(
  conditions: readonly AllowRuleCondition[],
  args: Record<string, unknown>,
): boolean {
  return conditions.every((condition) => {
    if (!Object.hasOwn(args, condition.field)) return false;
    const text = textOf(args[condition.field]);
    if (condition.op === "equals") return text === condition.value;
    if (text.length > MAX_TESTED_LENGTH) return false;
    const compiled = compileSafePattern(condition.value);
    return compiled.ok && compiled.regex.test(text);
  });
}
