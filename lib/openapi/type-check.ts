import type { z } from "zod";

/**
 * Compile-time proof that a response schema describes what a service returns. Mutual
 * assignability: a field missing on either side, a field required on one side and optional on
 * the other, or a different type fails `tsc` — so the document cannot drift from the DTO types.
 * (Not the stricter identity check: a DTO written as `A & B` must equal the same fields as one
 * object.)
 */
export type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `describes<ServerDto>()(serverSchema)` returns the schema unchanged, and fails to compile
 * unless the schema's parsed type and `T` are equal in the sense above.
 */
export function describes<T>() {
  return <S extends z.ZodType>(schema: S & (Equal<z.output<S>, T> extends true ? unknown : Mismatch<T>)): S =>
    schema;
}

/** What the compiler shows when a schema and its DTO disagree: the DTO type it should describe. */
type Mismatch<T> = { "the schema does not describe the DTO type": T };
