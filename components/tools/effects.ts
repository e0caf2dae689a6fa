import type { EffectClass } from "@/lib/policy/types";

/**
 * Effect classes for the browser, least to most risky. Kept apart from lib/policy/effects (which
 * pulls the database schema in) — the order and meaning must stay the same as there.
 */
export const effectOrder = [
  "read",
  "write",
  "external-write",
  "destructive",
] as const satisfies readonly EffectClass[];

export const UNCLASSIFIED_AS: EffectClass = "external-write";

export const effectLabels: Record<EffectClass, string> = {
  read: "read — only looks",
  write: "write — changes local state",
  "external-write": "external-write — reaches the outside world",
  destructive: "destructive — may delete or overwrite",
};

export const isLowerEffect = (a: EffectClass, b: EffectClass) =>
  effectOrder.indexOf(a) < effectOrder.indexOf(b);

export function isEffectClass(value: string): value is EffectClass {
  return (effectOrder as readonly string[]).includes(value);
}
