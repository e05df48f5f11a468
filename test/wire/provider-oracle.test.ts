import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  isApiError,
  type MomoClient,
  NotFoundError,
  ServerError,
  UnexpectedResponseError,
} from 'momo-partner-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Verdict } from '../support/prism';
import { CALLS, type DocumentCall } from './provider-calls';
import {
  type DocumentName,
  documentedErrors,
  documentOperations,
  type ProviderMock,
  startProviderMock,
} from './provider-mock';

// Every operation of the provider's three documents (51), sent through the SDK to a
// Prism validating mock of its document: no request violation beyond the differences
// oracle/README.md lists, every success parsed, and the documented error statuses of
// the operations added for the whole API mapped to the typed errors.

const ERROR_CLASSES: Record<number, abstract new (...args: never[]) => Error> = {
  400: BadRequestError,
  401: AuthenticationError,
  404: NotFoundError,
  409: ConflictError,
  500: ServerError,
};

const template = (path: string) =>
  new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`);

function theRequest(call: DocumentCall, verdicts: Verdict[]): Verdict | undefined {
  const [method, path = ''] = call.operation.split(' ');
  return verdicts.find((v) => v.method === method && template(path).test(v.path));
}

const violations = (verdicts: Verdict[]) => verdicts.flatMap((v) => v.requestViolations);

describe.each(['collection', 'disbursement', 'remittance'] as const)(
  'the %s document (Prism)',
  (name: DocumentName) => {
    let mock: ProviderMock;
    let clients: { momo: MomoClient; provider: MomoClient };
    const reached = new Set<string>();

    beforeAll(async () => {
      mock = await startProviderMock(name);
      clients = { momo: mock.client(), provider: mock.client({ compat: 'provider' }) };
    }, 120_000);
    afterAll(() => mock?.prism.close());

    it.each(CALLS[name].map((call) => [call.operation, call] as const))(
      '%s: sent as documented, answer parsed',
      async (_, call) => {
        const { verdicts, outcome } = await mock.verdictsOf(() => call.run(clients));
        const request = theRequest(call, verdicts);
        expect(request, `no request reached ${call.operation}`).toBeDefined();
        expect(violations(verdicts)).toEqual([]);
        expect(request?.status).toBeGreaterThanOrEqual(200);
        expect(request?.status).toBeLessThan(300);
        if (call.operation.endsWith('/active')) {
          // The document gives this 200 no body (only an invalid media type): nothing to
          // read true or false from, which the SDK reports rather than guess.
          expect(outcome).toBeInstanceOf(UnexpectedResponseError);
        } else {
          expect(outcome).not.toBeInstanceOf(Error);
        }
        reached.add(call.operation);
      },
    );

    it.each(
      CALLS[name]
        .filter((call) => call.added)
        .flatMap((call) =>
          documentedErrors(name, call.operation).map(
            (status) => [call.operation, status, call] as const,
          ),
        ),
    )('%s: the documented %i is a typed error', async (_, status, call) => {
      const headers = { Prefer: `code=${status}` };
      const { verdicts, outcome } = await mock.verdictsOf(() => call.run(clients, { headers }));
      expect(violations(verdicts)).toEqual([]);
      expect(theRequest(call, verdicts)?.status).toBe(status);
      expect(isApiError(outcome)).toBe(true);
      expect(outcome).toBeInstanceOf(ERROR_CLASSES[status] as never);
      expect(outcome).toMatchObject({ status });
    });

    it('every operation of the document was reached', () => {
      expect([...reached].sort()).toEqual(documentOperations(name).sort());
    });

    it.runIf(name === 'collection')(
      'known difference: request to withdraw v2 is PUT by default (the specification), which the document refuses',
      async () => {
        const body = {
          amount: '5',
          currency: 'EUR',
          payer: { partyIdType: 'MSISDN', partyId: '46733123453' },
        } as const;
        const { verdicts } = await mock.verdictsOf(() =>
          mock.client().collection.requestToWithdraw(body),
        );
        expect(verdicts.at(-1)).toMatchObject({
          method: 'PUT',
          path: '/v2_0/requesttowithdraw',
          status: 405,
        });
      },
    );

    it.runIf(name === 'collection')(
      'the mock does validate: a body of the wrong types is refused with violations',
      async () => {
        const response = await mock.prism.fetch(`${mock.prism.url}/v2_0/invoice`, {
          method: 'POST',
          headers: {
            Authorization: 'Bearer t',
            'X-Target-Environment': 'sandbox',
            'X-Reference-Id': '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77',
            'Ocp-Apim-Subscription-Key': 'k',
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ amount: 20, validityDuration: 3600 }),
        });
        expect(response.status).toBe(400);
        expect(mock.prism.verdicts.at(-1)?.requestViolations.join('\n')).toMatch(/amount/);
      },
    );
  },
);

it('the three documents hold 51 operations', () => {
  const counts = (['collection', 'disbursement', 'remittance'] as const).map(
    (name) => documentOperations(name).length,
  );
  expect(counts).toEqual([23, 16, 12]);
});
