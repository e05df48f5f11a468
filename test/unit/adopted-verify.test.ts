import { describe, expect, it } from 'vitest';
import { differences, isMismatch, mismatchReason } from '../../src/payments/verify';

const body = {
  amount: '100.00',
  currency: 'EUR',
  externalId: 'inv-1',
  payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
};

describe("an adopted payment compared with the provider's transaction", () => {
  it('agrees across how the provider writes the same values', () => {
    expect(
      differences(body, {
        amount: '100',
        currency: 'eur',
        externalId: 'inv-1',
        payee: { partyIdType: 'msisdn', partyId: '+46 733 123 999' },
        status: 'SUCCESSFUL',
      }),
    ).toEqual([]);
    expect(differences({ ...body, amount: '0100.5' }, { amount: '100.50' })).toEqual([]);
    const email = { partyIdType: 'EMAIL', partyId: 'Pay@Example.com' };
    expect(
      differences({ payer: email }, { payer: { ...email, partyId: 'pay@example.com' } }),
    ).toEqual([]);
  });

  it('names each field that differs, with the provider value and the item value', () => {
    const reason = mismatchReason(body, {
      amount: '100.01',
      currency: 'GHS',
      externalId: 'inv-2',
      payee: { partyIdType: 'EMAIL', partyId: 'a@b.co' },
    });
    expect(reason).toBe(
      'amount: the provider holds 100.01 for this reference id, the item says 100.00; ' +
        'currency: the provider holds GHS for this reference id, the item says EUR; ' +
        'externalId: the provider holds inv-2 for this reference id, the item says inv-1; ' +
        'payee: the provider holds EMAIL a@b.co for this reference id, the item says MSISDN 46733123999; not sent',
    );
    expect(isMismatch(reason)).toBe(true);
    expect(
      isMismatch('key: "k" was used in this batch for another body or operation; not sent'),
    ).toBe(false);
  });

  it('does not reject for a field the provider leaves out (nothing to compare), nor one the item leaves out', () => {
    expect(differences(body, { status: 'SUCCESSFUL' })).toEqual([]);
    expect(differences(body, { amount: '100', payee: { partyIdType: 'MSISDN' } })).toEqual([]);
    expect(differences({ amount: '5', currency: 'EUR' }, { amount: '5', externalId: 'x' })).toEqual(
      [],
    );
  });

  it("reads a payment's money, and fields the SDK does not know (unknownFields)", () => {
    expect(
      differences(
        { money: { amount: '5', currency: 'EUR' } },
        { status: 'SUCCESSFUL', unknownFields: { money: { amount: '6.00', currency: 'EUR' } } },
      ),
    ).toEqual([{ field: 'money.amount', provider: '6.00', item: '5' }]);
  });
});
