import * as z from 'zod/mini';
import { identificationType } from './collection';
import {
  amount,
  currency,
  email,
  externalId,
  looseString,
  msisdn,
  note,
  party,
  plainText,
} from './common';
import { transactionResult } from './transactions';

/** Cash transfer body (spec 2.3); `orginatingCountry` is spelled as the specification does. */
export const cashTransferBody = z.strictObject({
  amount,
  currency: z.optional(currency),
  payee: z.optional(party),
  externalId: z.optional(externalId),
  orginatingCountry: z
    .string()
    .check(z.minLength(1, { error: 'is required: the country the request came from' })),
  originalAmount: amount,
  originalCurrency: currency,
  payerMessage: z.optional(note),
  payeeNote: z.optional(note),
  payerIdentificationType: identificationType,
  payerIdentificationNumber: plainText.check(z.minLength(1, { error: 'must not be empty' })),
  payerIdentity: z.optional(plainText),
  payerFirstName: z.optional(plainText),
  payerSurName: z.optional(plainText),
  payerLanguageCode: z.optional(plainText),
  payerEmail: z.optional(email),
  payerMsisdn: z.optional(msisdn),
  payerGender: z.optional(plainText),
});
export type CashTransferBody = z.infer<typeof cashTransferBody>;

/** Cash transfer status: the transaction result plus the cash-transfer fields echoed back. */
export const cashTransferResult = z.extend(transactionResult, {
  originalAmount: z.optional(looseString),
  originalCurrency: z.optional(z.string()),
  orginatingCountry: z.optional(z.string()),
  payerIdentificationType: z.optional(z.string()),
  payerIdentificationNumber: z.optional(looseString),
});
export type CashTransferResult = z.infer<typeof cashTransferResult>;

const flag = z.optional(z.union([z.boolean(), z.string()]));

/** User info with consent (spec 2.6); unspecified types are strings. */
export const userInfo = z.looseObject({
  sub: z.optional(looseString),
  name: z.optional(z.string()),
  given_name: z.optional(z.string()),
  family_name: z.optional(z.string()),
  middle_name: z.optional(z.string()),
  email: z.optional(z.string()),
  email_verified: flag,
  gender: z.optional(z.string()),
  locale: z.optional(z.string()),
  phone_number: z.optional(looseString),
  phone_number_verified: flag,
  address: z.optional(z.string()),
  updated_at: z.optional(z.union([z.number(), z.string()])),
  status: z.optional(z.string()),
  birthdate: z.optional(z.string()),
  credit_score: z.optional(looseString),
  active: flag,
  country_of_birth: z.optional(z.string()),
  region_of_birth: z.optional(z.string()),
  city_of_birth: z.optional(z.string()),
  occupation: z.optional(z.string()),
  employer_name: z.optional(z.string()),
  identification_type: z.optional(z.string()),
  identification_value: z.optional(looseString),
});
export type UserInfo = z.infer<typeof userInfo>;
