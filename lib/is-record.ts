/**
 * A plain JSON-style object: not null, not a list. Pure and dependency-free, so the browser
 * (components), the services and the catalog share one definition.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
