import type * as z from 'zod/mini';

/**
 * A schema built on its first use, then kept. Building every zod schema when the package
 * is imported was half its import time, paid even by code that never validates.
 */
export function lazy<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/**
 * A schema of `T` as `lazy` gives it: what operations and `parseWith` take. Declared by the
 * Standard Schema shape every zod schema carries, not by a zod type: the operation tables'
 * types reach the published declarations, and zod is bundled, never a package a partner's
 * compiler can find (`parseWith` hands it back to zod).
 */
export type LazySchema<T> = () => SchemaOf<T>;
/** What a schema of `T` is known by in the published types: its Standard Schema output. */
export interface SchemaOf<T> {
  readonly '~standard': { readonly types?: { readonly output: T } | undefined };
}
/** What a schema `lazy` gives reads: `z.output` of what it builds. */
export type Output<S extends () => z.ZodMiniType> = z.output<ReturnType<S>>;
/** What a schema `lazy` gives accepts: `z.input` of what it builds. */
export type Input<S extends () => z.ZodMiniType> = z.input<ReturnType<S>>;
