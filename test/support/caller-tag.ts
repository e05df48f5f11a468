import type { Journal } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';

/** A transfer body, with or without the partner's externalId. */
export const transfer = (externalId?: string) => ({
  amount: '10',
  currency: 'EUR',
  ...(externalId === undefined ? {} : { externalId }),
  payee: { partyIdType: 'MSISDN' as const, partyId: '46733123453' },
});

/** What a journal entry says of whose payment it is, for a body and options. */
export async function tagOf(
  journal: Journal,
  externalId: string | undefined,
  options: { tag?: string } = {},
): Promise<string | undefined> {
  const momo = createSimulator().client({ journal });
  const { referenceId } = await momo.disbursement.transfer(transfer(externalId), options);
  return (await journal.get(referenceId))?.tag;
}
