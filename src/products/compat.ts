import type { Compat } from '../core/options';

/*
 * Where the provider's documents and the specification disagree (docs/assumptions.md,
 * "surface (round 3)"): the specification's form by default, the documents' form with
 * `compat: 'provider'`, and what is harmless to both always.
 */

const SPELLING = { spec: 'SRSA', provider: 'SRSSA' } as const;

/**
 * The identification type `SRSA` (specification) is `SRSSA` in the provider's
 * documents: either is accepted, and sent as `compat` spells it. Anything else is left
 * to the body's schema.
 */
export function spellIdentificationType<T>(body: T, field: string, compat: Compat): T {
  if (body === null || typeof body !== 'object') return body;
  const value = (body as Record<string, unknown>)[field];
  if (value !== 'SRSA' && value !== 'SRSSA') return body;
  return { ...body, [field]: SPELLING[compat] };
}

/** Printable ASCII without leading or trailing spaces: what any HTTP stack sends as is. */
const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The provider's documents also want the delivery notification's message in a
 * `notificationMessage` header. Sent whenever the message can travel in one (header-safe
 * characters; the body's 160-character limit keeps it short); the specification's body
 * carries it in every case.
 */
export function fitsInHeader(message: unknown): message is string {
  return typeof message === 'string' && message.length <= 160 && HEADER_SAFE.test(message);
}
