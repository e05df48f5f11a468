import { type RateClass, type RateScope, ValidationError } from 'momo-partner-sdk';

const KINDS: readonly string[] = ['create', 'lookup'];
/** A scope's id goes into a key or a row's name: a hash, never a raw subscription key. */
const SCOPE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The windows one reservation is made in, each named within the store's own space, with
 * its rate: the class's alone, or a scope's own (a tenant's key) and, under the scope's
 * `totalPerSecond`, the one all scopes share. The arguments are checked here, once for
 * the Redis and the PostgreSQL budget (`operation` names the store in the error).
 */
export function rateWindows(
  operation: 'redis' | 'postgres',
  kind: RateClass,
  perSecond: number,
  marginMs: number,
  scope: RateScope | undefined,
): [name: string, perSecond: number][] {
  const refuse = (path: string, message: string) =>
    new ValidationError([{ path, message }], { operation });
  if (!KINDS.includes(kind)) throw refuse('kind', "must be 'create' or 'lookup'");
  if (!(Number.isFinite(perSecond) && perSecond > 0)) {
    throw refuse('perSecond', 'must be a positive number');
  }
  if (!(Number.isFinite(marginMs) && marginMs >= 0)) {
    throw refuse('marginMs', 'must be a number of milliseconds, 0 or more');
  }
  if (scope === undefined) return [[kind, perSecond]];
  if (!SCOPE_ID.test(scope.id)) {
    throw refuse('scope.id', 'must be 1 to 64 letters, digits, _ or - (a hash)');
  }
  const windows: [string, number][] = [[`key:${scope.id}:${kind}`, perSecond]];
  const total = scope.totalPerSecond;
  if (total !== undefined) {
    if (!(Number.isFinite(total) && total > 0)) {
      throw refuse('scope.totalPerSecond', 'must be a positive number');
    }
    windows.push([`all:${kind}`, total]);
  }
  return windows;
}

/**
 * The window a pause the provider asked for is kept on (`pause`, `pausedUntil`): the
 * class's, or the scope's own (a tenant's key: the provider caps each key, so a 429 on
 * one key says nothing of another's); the overall window is never paused.
 */
export function pauseWindow(
  operation: 'redis' | 'postgres',
  kind: RateClass,
  ms: number,
  scope: RateScope | undefined,
): string {
  if (!(Number.isFinite(ms) && ms >= 0)) {
    throw new ValidationError(
      [{ path: 'ms', message: 'must be a number of milliseconds, 0 or more' }],
      {
        operation,
      },
    );
  }
  const [own] = rateWindows(
    operation,
    kind,
    1,
    0,
    scope === undefined ? undefined : { id: scope.id },
  );
  return (own as [string, number])[0];
}
