import type { ClientSurface } from '../client-surface';
import { isNotFoundError } from '../errors';
import type { BatchOperationSpec } from './operations';

/** Whether the item's counterparty is active; undefined when it names none an id kind fits. */
export async function accountHolderActive(
  momo: ClientSurface,
  spec: BatchOperationSpec | undefined,
  body: unknown,
  signal: AbortSignal | undefined,
): Promise<boolean | undefined> {
  const party = spec?.party && (body as Record<string, unknown>)[spec.party];
  const { partyIdType, partyId } = (party ?? {}) as { partyIdType?: string; partyId?: string };
  const idType =
    partyIdType === 'MSISDN' ? 'msisdn' : partyIdType === 'EMAIL' ? 'email' : undefined;
  if (!spec || !idType || typeof partyId !== 'string') return undefined;
  try {
    return await momo[spec.product].isAccountHolderActive(
      idType,
      partyId,
      signal ? { signal } : {},
    );
  } catch (error) {
    if (isNotFoundError(error)) return false;
    throw error;
  }
}
