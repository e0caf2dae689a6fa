import type { z } from "zod";

/**
 * Compile-time proof that a response schema describes what a service returns, so the document
 * cannot drift from the DTO types. Both sides are compared as JSON carries them (a field typed
 * `T | undefined` is a field that may be absent), by mutual assignability: a field missing on
 * either side, required on one side and optional on the other, or of another type fails `tsc`.
 * (Not the stricter identity check: a DTO written as `A & B` equals the same fields as one object.)
 */
export type Equal<A, B> = [Wire<A>] extends [Wire<B>] ? ([Wire<B>] extends [Wire<A>] ? true : false) : false;

/** A type as it reads after JSON.stringify: a property that may be undefined may be left out. */
type Wire<T> = T extends readonly (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? { [K in keyof T as undefined extends T[K] ? never : K]: Wire<T[K]> } & {
        [K in keyof T as undefined extends T[K] ? K : never]?: Wire<Exclude<T[K], undefined>>;
      }
    : T;

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
