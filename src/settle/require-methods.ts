import { ValidationError } from '../errors';

/** A ValidationError naming the option when it lacks one of these methods. */
export function requireMethods(value: unknown, option: string, methods: string[]): void {
  if (value === undefined) return;
  const missing = methods.filter(
    (name) => typeof (value as Record<string, unknown> | null)?.[name] !== 'function',
  );
  if (missing.length > 0) {
    throw new ValidationError([{ path: option, message: `must have ${missing.join(', ')}()` }]);
  }
}
