import type { Subscription } from 'momo-partner-sdk';

/** Epoch ms of the cases' subscriptions: 1 March 2026. */
export const T = Date.UTC(2026, 2, 1);
export const HOUR = 3_600_000;

/** A subscription as the SDK writes one, due at `dueAt` (undefined: stopped). */
export function subscription(key: string, dueAt: number | undefined, period = 0): Subscription {
  return {
    key,
    plan: 'gym-monthly',
    payer: { partyIdType: 'MSISDN', partyId: '233244555701' },
    status: dueAt === undefined ? 'CANCELLED' : 'ACTIVE',
    ...(dueAt === undefined ? { reason: 'cancelled' } : { dueAt, nextChargeAt: dueAt }),
    startAt: T,
    mandateDays: 365,
    mandate: {
      referenceId: '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f',
      number: 0,
      status: 'APPROVED',
      expiresAt: T + 365 * 24 * HOUR,
    },
    period,
    charges:
      period === 0
        ? []
        : [
            {
              period: 0,
              attempt: 1,
              referenceId: '1c2d3e4f-5061-4728-993a-4b5c6d7e8f90',
              status: 'SUCCESSFUL',
              at: T,
            },
          ],
    createdAt: T,
    updatedAt: T + period,
  };
}
