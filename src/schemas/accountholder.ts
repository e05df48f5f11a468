import * as z from 'zod/mini';
import { lazy } from './lazy';
import { kindOf } from './validate';

/*
 * Account-holder queries of every product: is the holder active, who is it. The
 * identifier is checked against its kind before anything is sent.
 */

const MSISDN = /^\+?[1-9]\d{4,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `/accountholder/{idType}/{id}/active`: the document allows `msisdn` and `email`. */
export type ActiveIdType = 'msisdn' | 'email';
export const activeIdType = lazy(() => z.enum(['msisdn', 'email'] satisfies ActiveIdType[]));

export const activeHolder = lazy(() =>
  z.strictObject({ accountHolderIdType: activeIdType(), accountHolderId: z.string() }).check(
    z.superRefine((value, ctx) => {
      const email = value.accountHolderIdType === 'email';
      if (!(email ? EMAIL : MSISDN).test(value.accountHolderId)) {
        ctx.issues.push({
          code: 'custom',
          message: email ? 'must be an e-mail address' : 'must be an MSISDN in E.164 form',
          input: value.accountHolderId,
          path: ['accountHolderId'],
        });
      }
    }),
  ),
);

/**
 * `true` when the holder is registered and active. The document's `BooleanResult` is
 * `{ result }`; a bare `true`/`false` is read too.
 */
export const activeResult = lazy(() =>
  z.pipe(
    z.union([z.boolean(), z.looseObject({ result: z.boolean() })], {
      error: (issue) => `must be { result: boolean }, got ${kindOf(issue.input)}`,
    }),
    z.transform((v) => (typeof v === 'boolean' ? v : v.result)),
  ),
);

/** `/accountholder/{idType}/{id}/basicuserinfo`: the document's identity kinds. */
export type BasicInfoIdType = 'MSISDN' | 'Email' | 'Alias' | 'ID';
export const basicInfoIdType = lazy(() =>
  z.enum(['MSISDN', 'Email', 'Alias', 'ID'] satisfies BasicInfoIdType[]),
);

/** Any identifier the service validates itself: non-empty, at most 256 characters. */
export const holderId = lazy(() =>
  z
    .string()
    .check(
      z.minLength(1, { error: 'must not be empty' }),
      z.maxLength(256, { error: 'must be at most 256 characters' }),
    ),
);
