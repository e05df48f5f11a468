import { inspect } from 'node:util';

/** Every way an object gets printed: what the secrets tests search for secrets. */
export function renderings(value: unknown): string {
  return [
    String(value),
    (value as Error)?.message ?? '',
    (value as Error)?.stack ?? '',
    JSON.stringify(value),
    inspect(value, { depth: 10, showHidden: true }),
  ].join('\n');
}
