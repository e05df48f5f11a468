import * as z from 'zod/mini';
import { lazy } from './lazy';

/*
 * Readers for what the service sends back: strict about the few fields the SDK relies
 * on, tolerant about everything else. Known fields are typed
 * precisely; a field this version does not know is kept, as sent, under
 * `unknownFields`; an enum value it does not know passes through unchanged.
 */

/** Fields the service sent that this version of the SDK does not know, as sent. */
export type UnknownFields = Readonly<Record<string, unknown>>;

/** What every tolerant result carries besides its known fields. */
export interface Tolerant {
  /**
   * Fields the service sent that this version of the SDK does not name, exactly as
   * sent; present only when there is at least one.
   */
  unknownFields?: UnknownFields | undefined;
  /**
   * On a status lookup's result: the provider's id for that request (`X-Request-Id`,
   * `Request-Id` or `apim-request-id`), when it sent one, for support tickets.
   */
  requestId?: string | undefined;
}

/**
 * A string whose documented values are `values`, typed as their union. Other values
 * still pass at run time (the service may add one before the SDK knows it): compare
 * against the documented ones and treat anything else as "not one of those".
 */
export const knownString = <const T extends readonly [string, ...string[]]>(_values: T) =>
  z.string() as unknown as z.ZodMiniType<T[number], unknown>;

/** One object type instead of an intersection (what editors show, what type tests compare). */
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * An object read tolerantly: its known fields as `shape` says, every other field moved
 * under `unknownFields`, so that the result type has no index signature.
 */
export function tolerant<S extends z.core.$ZodLooseShape>(shape: S) {
  const known = new Set(Object.keys(shape));
  return z.pipe(
    z.looseObject(shape),
    z.transform((value) => {
      const out: Record<string, unknown> = {};
      let unknownFields: Record<string, unknown> | undefined;
      for (const key in value) {
        const field = (value as Record<string, unknown>)[key];
        if (known.has(key)) {
          out[key] = field;
        } else {
          unknownFields ??= {};
          unknownFields[key] = field;
        }
      }
      if (unknownFields) out.unknownFields = unknownFields;
      return out as Flat<z.output<z.ZodMiniObject<S>> & Tolerant>;
    }),
  );
}

/** A documented string that some servers send as a number. */
export const looseString = lazy(() =>
  z.pipe(
    z.union([z.string(), z.number()]),
    z.transform((v) => String(v)),
  ),
);

// Here, beside the results that echo it, so that common.ts (which re-exports it for the
// requests) and this file do not import each other.
/** The kinds of party id: an MSISDN (digits only), an e-mail address, or a party code (UUID). */
export type PartyIdType = 'MSISDN' | 'EMAIL' | 'PARTY_CODE';

/** A party as results echo it: every field optional. */
export const resultParty = lazy(() =>
  tolerant({
    partyIdType: z.optional(knownString(['MSISDN', 'EMAIL', 'PARTY_CODE'] as const)),
    partyId: z.optional(looseString()),
  }),
);

/** A party as a result echoes it (payee, payer). */
export interface ResultParty extends Tolerant {
  partyIdType?: PartyIdType | undefined;
  partyId?: string | undefined;
}

/** Why a transaction failed: `{code, message}`, or a bare code string on some variants. */
export const reason = lazy(() =>
  z.pipe(
    z.union([
      z.string(),
      tolerant({ code: z.optional(z.string()), message: z.optional(z.string()) }),
    ]),
    z.transform(
      (v): Reason => (typeof v === 'string' ? { code: v } : { ...v, code: v.code ?? 'UNKNOWN' }),
    ),
  ),
);

/** Why a transaction failed. A bare code string from the service arrives as `{ code }`. */
export interface Reason extends Tolerant {
  /** e.g. `APPROVAL_REJECTED`, `NOT_ENOUGH_FUNDS`, `PAYEE_NOT_FOUND`; `UNKNOWN` when absent. */
  code: string;
  message?: string | undefined;
}

/** Transaction states: PENDING until final, then SUCCESSFUL or FAILED. */
export type TransactionStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';
export const transactionStatus = lazy(() =>
  knownString(['PENDING', 'SUCCESSFUL', 'FAILED'] as const),
);

/** What every status lookup result has. */
export interface StatusLike {
  status: TransactionStatus;
  reason?: Reason | undefined;
}

/** Statuses of invoices and payments, which are CREATED before PENDING. */
export type OperationStatus = 'CREATED' | TransactionStatus;

/** What every status lookup result has, invoices and payments included. */
export interface OperationStatusLike {
  status: OperationStatus;
  reason?: Reason | undefined;
}
