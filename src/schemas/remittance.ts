import * as z from 'zod/mini';
import { type IdentificationType, identificationType } from './collection';
import {
  amount,
  currency,
  email,
  externalId,
  minorUnitsOf,
  msisdn,
  note,
  type Party,
  party,
  plainText,
} from './common';
import { lazy } from './lazy';
import { looseString, type Tolerant, tolerant } from './tolerant';
import { type TransactionResult, transactionResultShape } from './transactions';

/** Cash transfer body (spec 2.3); `orginatingCountry` is spelled as the specification does. */
export const cashTransferBody = lazy(() =>
  z
    .strictObject({
      amount: amount(),
      currency: z.optional(currency()),
      payee: z.optional(party()),
      externalId: z.optional(externalId()),
      orginatingCountry: plainText().check(
        z.minLength(1, { error: 'is required: the country the request came from' }),
      ),
      originalAmount: amount(),
      originalCurrency: currency(),
      payerMessage: z.optional(note()),
      payeeNote: z.optional(note()),
      payerIdentificationType: identificationType(),
      payerIdentificationNumber: plainText().check(z.minLength(1, { error: 'must not be empty' })),
      payerIdentity: z.optional(plainText()),
      payerFirstName: z.optional(plainText()),
      payerSurName: z.optional(plainText()),
      payerLanguageCode: z.optional(plainText()),
      payerEmail: z.optional(email()),
      payerMsisdn: z.optional(msisdn()),
      payerGender: z.optional(plainText()),
    })
    .check(
      minorUnitsOf<CashTransferBody>(
        ['amount', 'currency'],
        ['originalAmount', 'originalCurrency'],
      ),
    ),
);

/** What a cash transfer sends. `orginatingCountry` is spelled as the service spells it. */
export interface CashTransferBody {
  /** A positive decimal string. */
  amount: string;
  currency?: string | undefined;
  payee?: Party | undefined;
  externalId?: string | undefined;
  /** The country the request came from. */
  orginatingCountry: string;
  /** A positive decimal string: the amount in the original currency. */
  originalAmount: string;
  originalCurrency: string;
  payerMessage?: string | undefined;
  payeeNote?: string | undefined;
  payerIdentificationType: IdentificationType;
  payerIdentificationNumber: string;
  payerIdentity?: string | undefined;
  payerFirstName?: string | undefined;
  payerSurName?: string | undefined;
  payerLanguageCode?: string | undefined;
  payerEmail?: string | undefined;
  payerMsisdn?: string | undefined;
  payerGender?: string | undefined;
}

/** Cash transfer status: the transaction result plus the cash-transfer fields echoed back. */
export const cashTransferResult = lazy(() =>
  tolerant({
    ...transactionResultShape(),
    originalAmount: z.optional(looseString()),
    originalCurrency: z.optional(z.string()),
    orginatingCountry: z.optional(z.string()),
    payerIdentificationType: z.optional(z.string()),
    payerIdentificationNumber: z.optional(looseString()),
  }),
);

/** A cash transfer as its status lookup answers it. */
export interface CashTransferResult extends TransactionResult {
  originalAmount?: string | undefined;
  originalCurrency?: string | undefined;
  orginatingCountry?: string | undefined;
  payerIdentificationType?: string | undefined;
  payerIdentificationNumber?: string | undefined;
}

/** User info with consent (spec 2.6); unspecified types are strings. */
export const userInfo = lazy(() => {
  const flag = z.optional(z.union([z.boolean(), z.string()]));
  return tolerant({
    sub: z.optional(looseString()),
    name: z.optional(z.string()),
    given_name: z.optional(z.string()),
    family_name: z.optional(z.string()),
    middle_name: z.optional(z.string()),
    email: z.optional(z.string()),
    email_verified: flag,
    gender: z.optional(z.string()),
    locale: z.optional(z.string()),
    phone_number: z.optional(looseString()),
    phone_number_verified: flag,
    address: z.optional(z.string()),
    updated_at: z.optional(z.union([z.number(), z.string()])),
    status: z.optional(z.string()),
    birthdate: z.optional(z.string()),
    credit_score: z.optional(looseString()),
    active: flag,
    country_of_birth: z.optional(z.string()),
    region_of_birth: z.optional(z.string()),
    city_of_birth: z.optional(z.string()),
    occupation: z.optional(z.string()),
    employer_name: z.optional(z.string()),
    identification_type: z.optional(z.string()),
    identification_value: z.optional(looseString()),
  });
});

/** An account holder's information, read with their consent. */
export interface UserInfo extends Tolerant {
  /** The account holder's identifier (their MSISDN). */
  sub?: string | undefined;
  name?: string | undefined;
  given_name?: string | undefined;
  family_name?: string | undefined;
  middle_name?: string | undefined;
  email?: string | undefined;
  email_verified?: boolean | string | undefined;
  gender?: string | undefined;
  locale?: string | undefined;
  phone_number?: string | undefined;
  phone_number_verified?: boolean | string | undefined;
  address?: string | undefined;
  updated_at?: number | string | undefined;
  status?: string | undefined;
  birthdate?: string | undefined;
  credit_score?: string | undefined;
  active?: boolean | string | undefined;
  country_of_birth?: string | undefined;
  region_of_birth?: string | undefined;
  city_of_birth?: string | undefined;
  occupation?: string | undefined;
  employer_name?: string | undefined;
  /** The first identification document that has not expired. */
  identification_type?: string | undefined;
  identification_value?: string | undefined;
}
