import * as z from 'zod/mini';
import { atMost, ID_RULES, idOfKind } from './common';
import { lazy } from './lazy';
import { MAX } from './rules';
import { kindOf } from './validate';

/*
 * Account-holder queries of every product: is the holder active, who is it. The
 * identifier is checked against its kind before anything is sent.
 */

/** `/accountholder/{idType}/{id}/active`: the document allows `msisdn` and `email`. */
export type ActiveIdType = 'msisdn' | 'email';
export const activeIdType = lazy(() => z.enum(['msisdn', 'email'] satisfies ActiveIdType[]));

/** The MSISDN and e-mail rules of every other call (one rule: no leading `+`). */
export const activeHolder = lazy(() =>
  z
    .strictObject({ accountHolderIdType: activeIdType(), accountHolderId: holderId() })
    .check(
      idOfKind<{ accountHolderIdType: string; accountHolderId: string }>(
        'accountHolderIdType',
        'accountHolderId',
        ID_RULES,
      ),
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

/** Basic user info by id kind: an MSISDN or an e-mail is checked by its rule, the rest by length. */
export const basicInfoHolder = lazy(() =>
  z
    .strictObject({ accountHolderIdType: basicInfoIdType(), accountHolderId: holderId() })
    .check(
      idOfKind<{ accountHolderIdType: string; accountHolderId: string }>(
        'accountHolderIdType',
        'accountHolderId',
        { MSISDN: ID_RULES.msisdn, Email: ID_RULES.email },
      ),
    ),
);

/** Any identifier the service validates itself: non-empty, at most 256 characters. */
export const holderId = lazy(() =>
  z.string().check(z.minLength(1, { error: 'must not be empty', abort: true }), atMost(MAX.text)),
);
