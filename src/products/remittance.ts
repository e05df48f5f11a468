import type { Final, WaitOptions } from '../contracts/wait';
import type { OperationPromise } from '../core/operation-promise';
import type { MomoClientOptions, RequestOptions } from '../core/options';
import { inspectSymbol } from '../inspect';
import type { CashTransferBody, CashTransferResult } from '../schemas/remittance';
import type { TransactionResult, TransferBody } from '../schemas/transactions';
import { spellIdentificationType } from './compat';
import { apiOf, ProductBase } from './product-base';
import { remittanceOperations as op } from './tables/remittance';

type Result = TransactionResult;

/** Remittance: send money across borders, with or without payer identification. */
export class Remittance extends ProductBase {
  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    super('remittance', options, context);
  }

  /** POST /remittance/v1_0/transfer */
  transfer(body: TransferBody, options?: RequestOptions): OperationPromise<Result> {
    return apiOf(this).create(op.transfer, body, options);
  }

  /**
   * POST /remittance/v2_0/cashtransfer. `payerIdentificationType` `SRSA` and `SRSSA` are
   * both accepted, and sent in the spelling `compat` chooses.
   */
  cashTransfer(
    body: CashTransferBody,
    options?: RequestOptions,
  ): OperationPromise<CashTransferResult> {
    const api = apiOf(this);
    const sent = spellIdentificationType(
      body,
      'payerIdentificationType',
      api.context.config.compat,
    );
    return api.create(op.cashTransfer, sent, options);
  }

  /** GET /remittance/v1_0/transfer/{referenceId}: one status lookup of a transfer. */
  getTransfer(referenceId: string, options?: RequestOptions): Promise<Result> {
    return apiOf(this).lookup(op.getTransfer, referenceId, options);
  }

  /** GET /remittance/v2_0/cashtransfer/{referenceId}: one status lookup of a cash transfer. */
  getCashTransfer(referenceId: string, options?: RequestOptions): Promise<CashTransferResult> {
    return apiOf(this).lookup(op.getCashTransfer, referenceId, options);
  }

  /** Looks a transfer up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForTransfer(referenceId: string, options?: WaitOptions<Result>): Promise<Final<Result>> {
    return apiOf(this).waitFor(op.getTransfer, referenceId, options);
  }

  /** Looks a cash transfer up until SUCCESSFUL or FAILED (after a restart, by its persisted reference id). */
  waitForCashTransfer(
    referenceId: string,
    options?: WaitOptions<CashTransferResult>,
  ): Promise<Final<CashTransferResult>> {
    return apiOf(this).waitFor(op.getCashTransfer, referenceId, options);
  }

  [inspectSymbol](): string {
    return 'Remittance';
  }
}
