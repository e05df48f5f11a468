import type * as z from 'zod/mini';

/**
 * A schema built on its first use, then kept. Building every zod schema when the package
 * is imported was half its import time, paid even by code that never validates.
 */
export function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** A schema of `T` as `lazy` gives it: what operations and `parseWith` take. */
export type LazySchema<T> = () => z.ZodMiniType<T>;
/** What a schema `lazy` gives reads: `z.output` of what it builds. */
export type Output<S extends () => z.ZodMiniType> = z.output<ReturnType<S>>;
/** What a schema `lazy` gives accepts: `z.input` of what it builds. */
export type Input<S extends () => z.ZodMiniType> = z.input<ReturnType<S>>;
