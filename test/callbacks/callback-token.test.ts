import { createHmac } from 'node:crypto';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';

// The SDK computes the callback token with its own SHA-256 (web APIs only, synchronous),
// whose constants it derives from the roots of the first primes: node:crypto is the
// reference. A secret longer than SHA-256's 64-byte block is hashed first (RFC 2104), a
// path the 32-character secrets of the other tests never take.
const SECRETS = [
  'a-callback-secret-of-32-chars-or-more',
  `a-long-callback-secret-${'x'.repeat(80)}-with-ünïcödé-€`,
];

describe('the callback token', () => {
  it.each(SECRETS)(
    'is hex(HMAC-SHA256(secret, "momo-callback:" + referenceId)): %s',
    async (secret) => {
      const sim = createSimulator();
      const momo = sim.client({
        callbackUrl: 'http://127.0.0.1:1/momo/callbacks/{referenceId}',
        callbackSecret: secret,
      });
      for (let i = 0; i < 3; i++) {
        const { referenceId, callbackUrl } = await momo.disbursement.deposit({
          amount: '10',
          currency: 'EUR',
          externalId: `order-${i}`,
          payee: { partyIdType: 'MSISDN', partyId: '46700000001' },
        });
        const token = createHmac('sha256', secret)
          .update(`momo-callback:${referenceId}`)
          .digest('hex');
        expect(callbackUrl).toBe(
          `http://127.0.0.1:1/momo/callbacks/${referenceId}?callbackToken=${token}`,
        );
      }
    },
  );
});
