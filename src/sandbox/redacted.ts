import { inspectSymbol } from '../inspect';

const REDACTED = '[redacted]';

/**
 * A plain object whose secret field stays an ordinary, enumerable property (so that
 * `{ ...user }` and `apiUser: user` work), while `JSON.stringify` and `util.inspect`
 * show it redacted: printing it by accident leaks nothing, reading it on purpose works.
 */
export function printsRedacted<T extends Record<string, string>>(value: T, secret: keyof T): T {
  const shown = () => ({ ...value, [secret]: REDACTED });
  Object.defineProperties(value, {
    toJSON: { value: shown, enumerable: false },
    [inspectSymbol]: {
      value: () =>
        `{ ${Object.entries(shown())
          .map(([k, v]) => `${k}: ${v === REDACTED ? v : `'${v}'`}`)
          .join(', ')} }`,
      enumerable: false,
    },
  });
  return value;
}
