import { expect } from 'vitest';
import { rawClient, type Sim, uuidv4 } from './helpers';

/** Shared by the standard-style (spec 2.4, 4.6, 7.2) tests. */
export const PATH = '/collection/v1.2/mm/Transactions/Type/Disbursement';

export const body = (extra: Record<string, unknown> = {}) => ({
  requestingOrganisationTransactionReference: 'order-7',
  debitParty: [{ key: 'msisdn', value: '46700000001' }],
  amount: '25.50',
  currency: 'EUR',
  descriptionText: 'Thanks',
  customData: [
    { key: 'ownnote', value: 'Paid out' },
    { key: 'other', value: 'ignored' },
  ],
  ...extra,
});

export async function send(
  sim: Sim,
  payload: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<{ correlationId: string; response: Response }> {
  const http = rawClient(sim);
  const correlationId = uuidv4();
  const all: Record<string, string | undefined> = {
    Authorization: `Bearer ${await http.token('collection')}`,
    'X-CorrelationID': correlationId,
    'X-Account-Holding-Institution-Identifier': sim.credentials.targetEnvironment,
    'X-Target-Environment': undefined, // not needed here
    'Content-Type': 'application/json',
    ...headers,
  };
  const defined = Object.fromEntries(
    Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const response = await sim.fetch(`${sim.credentials.baseUrl}${PATH}`, {
    method: 'POST',
    headers: { 'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey, ...defined },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { correlationId: headers['X-CorrelationID'] ?? correlationId, response };
}

export const mmBody = (errorCategory: string, errorCode: string) => ({
  errorCategory,
  errorCode,
  errorDescription: expect.any(String),
  errorDateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
});
