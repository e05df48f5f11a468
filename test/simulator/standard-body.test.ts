import { describe, expect, it } from 'vitest';
import { simulator, uuidv4 } from './helpers';
import { body, mmBody, send } from './standard-helpers';

describe('simulator: standard-style disbursement body (spec 2.4, 8)', () => {
  const invalid: [string, Record<string, unknown>, string, string][] = [
    [
      '11 debit parties',
      body({ debitParty: Array.from({ length: 11 }, () => ({ key: 'msisdn', value: '467000' })) }),
      'Validation',
      'LengthError',
    ],
    ['no debit party', body({ debitParty: [] }), 'Validation', 'LengthError'],
    [
      'a missing debitParty',
      body({ debitParty: undefined }),
      'Validation',
      'MandatoryValueNotSupplied',
    ],
    [
      'an unknown party key',
      body({ debitParty: [{ key: 'iban', value: 'x' }] }),
      'Validation',
      'FormatError',
    ],
    [
      'a party without value',
      body({ debitParty: [{ key: 'msisdn' }] }),
      'Validation',
      'MandatoryValueNotSupplied',
    ],
    [
      'an empty party value',
      body({ debitParty: [{ key: 'msisdn', value: '' }] }),
      'Validation',
      'LengthError',
    ],
    [
      'a non-string party value',
      body({ debitParty: [{ key: 'msisdn', value: { msisdn: '1' } }] }),
      'Validation',
      'FormatError',
    ],
    [
      'no valid debit party',
      body({ debitParty: [{ key: 'msisdn', value: 'abc' }] }),
      'Validation',
      'IdentifierError',
    ],
    [
      'a 161-character descriptionText',
      body({ descriptionText: 'x'.repeat(161) }),
      'Validation',
      'LengthError',
    ],
    [
      'an apostrophe in descriptionText',
      body({ descriptionText: "it's" }),
      'Validation',
      'FormatError',
    ],
    [
      '21 customData entries',
      body({ customData: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, value: 'v' })) }),
      'Validation',
      'LengthError',
    ],
    [
      'a 257-character customData value',
      body({ customData: [{ key: 'k', value: 'v'.repeat(257) }] }),
      'Validation',
      'LengthError',
    ],
    [
      'an empty customData key',
      body({ customData: [{ key: '', value: 'v' }] }),
      'Validation',
      'LengthError',
    ],
    [
      'a 257-character reference',
      body({ requestingOrganisationTransactionReference: 'r'.repeat(257) }),
      'Validation',
      'LengthError',
    ],
    ['a missing amount', body({ amount: undefined }), 'Validation', 'MandatoryValueNotSupplied'],
    ['a 24-character amount', body({ amount: `1${'0'.repeat(23)}` }), 'Validation', 'LengthError'],
    ['an empty amount', body({ amount: '' }), 'Validation', 'LengthError'],
    ['a negative amount', body({ amount: '-5' }), 'Validation', 'NegativeValue'],
    ['a numeric amount', body({ amount: 5 }), 'Validation', 'FormatError'],
    ['a non-decimal amount', body({ amount: '1e3' }), 'Validation', 'FormatError'],
    ['a malformed currency', body({ currency: 'euro' }), 'Validation', 'FormatError'],
    ['another currency', body({ currency: 'UGX' }), 'BusinessRule', 'CurrencyNotSupported'],
    [
      'a creditParty of another key',
      body({ creditParty: [{ key: 'msisdn', value: '46700000001' }] }),
      'Validation',
      'FormatError',
    ],
    [
      'a creditParty that is not the API user',
      body({ creditParty: [{ key: 'accountid', value: uuidv4() }] }),
      'Authorisation',
      'ClientAuthorisationError',
    ],
    [
      '11 credit parties',
      body({
        creditParty: Array.from({ length: 11 }, () => ({ key: 'accountid', value: uuidv4() })),
      }),
      'Validation',
      'LengthError',
    ],
  ];

  it.each(invalid)(
    'answers 400 (7.2) to %s and stores nothing',
    async (_, payload, category, code) => {
      const sim = simulator();
      const { response } = await send(sim, payload);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(mmBody(category, code));
      expect(sim.transactions).toHaveLength(0);
    },
  );
});
