import * as z from 'zod/mini';
import { lazy } from './lazy';

/** Seconds, as a number or a numeric string. */
export const seconds = lazy(() =>
  z.pipe(
    z.union([z.number(), z.string().check(z.regex(/^\d+(\.\d+)?$/))]),
    z.transform((v) => Number(v)),
  ),
);

/** Access token response (spec 2.6, 4.7). */
export const accessTokenResponse = lazy(() =>
  z.looseObject({
    access_token: z.string().check(z.minLength(1)),
    token_type: z.optional(z.string()),
    expires_in: z.optional(seconds()),
  }),
);
