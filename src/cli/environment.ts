import { randomUUID } from 'node:crypto';
import type { MomoClient } from '../client';
import type { ProductName } from '../core/options';
import { isApiError, isNotFoundError } from '../errors';

/** What a read that needs the target environment showed. */
export interface EnvironmentProbe {
  /** `balance` (disbursement, collection) or `lookup` (remittance: an unknown transfer). */
  readonly via: 'balance' | 'lookup';
  readonly availableBalance?: string;
  readonly currency?: string;
}

/**
 * The token request does not check X-Target-Environment (the sandbox and the legacy
 * platform ignore it there), so a wrong one only shows on the next call. This makes that
 * call: a balance read, or for remittance (no balance in the specification) the lookup of
 * a transfer that does not exist, where 404 means the environment was accepted. Sent once
 * (no retry): the refusal is a 500 that retrying cannot change.
 */
export async function probeEnvironment(
  momo: MomoClient,
  product: ProductName,
): Promise<EnvironmentProbe> {
  if (product === 'remittance') {
    try {
      await momo.remittance.getTransfer(randomUUID(), { maxRetries: 0 });
    } catch (error) {
      if (isNotFoundError(error)) return { via: 'lookup' };
      throw error;
    }
    return { via: 'lookup' };
  }
  const balance = await momo[product].getBalance({ maxRetries: 0 });
  return { via: 'balance', availableBalance: balance.availableBalance, currency: balance.currency };
}

/** The service's refusal of X-Target-Environment (500 NOT_ALLOWED_TARGET_ENVIRONMENT). */
export function isEnvironmentRefusal(error: unknown): boolean {
  return isApiError(error) && error.code === 'NOT_ALLOWED_TARGET_ENVIRONMENT';
}

/** What to do about a refused target environment. */
export function environmentFix(targetEnvironment: string): string {
  return (
    `the service refused target environment '${targetEnvironment}' (NOT_ALLOWED_TARGET_ENVIRONMENT): ` +
    "change MOMO_TARGET_ENVIRONMENT (or --target-environment): 'sandbox' in the sandbox, " +
    'in production the one your credentials were issued for (mtn<country>)'
  );
}
