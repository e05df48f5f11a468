import { AccessToken } from '../auth/access-token';
import type { WaitTrace } from '../contracts/telemetry';
import type { Final, WaitOptions } from '../contracts/wait';
import type { CallInput, CallResult } from '../core/call';
import type { Operation } from '../core/operation';
import {
  type Accepted,
  type OperationPromise,
  toOperationPromise,
} from '../core/operation-promise';
import type { ProductName, RequestOptions } from '../core/options';
import { withReferenceId } from '../core/reference-id';
import type { WaitRequest } from '../polling/poller';
import type { OperationStatusLike } from '../schemas/tolerant';
import type { Tracked } from '../settle/registry';
import type { ConfirmedOperation, Lookup } from './endpoints';
import type { ProductContext } from './product-context';

type Status = OperationStatusLike;

/** A creating call the specification gives no status lookup: its outcome comes by callback. */
export interface Submitted {
  /** The client-generated id sent with the call. Persist it. */
  referenceId: string;
  /** The X-Callback-Url actually sent, if any. */
  callbackUrl?: string;
  /** The provider's request id of the accepting answer, when it sent one (for support tickets). */
  requestId?: string;
}

/** The few verbs product methods are written in: send, create, submit, look up, wait. */
export class ProductApi {
  readonly #ctx: ProductContext;

  constructor(ctx: ProductContext) {
    this.#ctx = ctx;
  }

  /** What the client shares: config, poller (consent waits, scrubbing). */
  get context(): ProductContext {
    return this.#ctx;
  }

  /** POST /{product}/token/ (Basic), served from the shared cache unless `forceRefresh`. */
  async accessToken(
    product: ProductName,
    options: { forceRefresh?: boolean } = {},
  ): Promise<AccessToken> {
    return new AccessToken(
      await this.#ctx.auth.accessToken(product, options.forceRefresh === true),
    );
  }

  /** A call whose answer is the parsed body. */
  async send<TBody, TResult>(
    op: Operation<TBody, TResult>,
    input: CallInput = {},
  ): Promise<TResult> {
    return (await this.#ctx.transport.call(op, input)).data;
  }

  /** A call whose whole answer (status, ids, landed-earlier flag) matters. */
  call<TBody, TResult>(
    op: Operation<TBody, TResult>,
    input: CallInput,
  ): Promise<CallResult<TResult>> {
    return this.#ctx.transport.call(op, input);
  }

  /** A creating call (202) whose outcome is read by the lookup its table names. */
  create<R extends Status>(
    op: ConfirmedOperation<never, R> | ConfirmedOperation<unknown, R>,
    body: unknown,
    options: RequestOptions | undefined,
  ): OperationPromise<R> {
    const lookup = op.confirmedBy;
    const input = withReferenceId(options);
    // Tracked before sending: a fast callback may arrive before the 202 is read.
    const tracked = input.referenceId ? this.#track(lookup, input.referenceId, op.name) : undefined;
    const call = { body, options: input.options };
    const accepted = this.#journalled(op, input.referenceId, call).then((res): Accepted<R> => {
      const referenceId = res.referenceId as string;
      const acceptedAt = Date.now();
      return {
        referenceId,
        ...(res.callbackUrl ? { callbackUrl: res.callbackUrl } : {}),
        ...(res.requestId ? { requestId: res.requestId } : {}),
        landedEarlier: res.landedEarlier,
        status: (o) => this.lookup(lookup, referenceId, o),
        wait: (o) => this.waitFor(lookup, referenceId, o, acceptedAt, tracked),
      };
    });
    return toOperationPromise(accepted);
  }

  /** A creating call without a status lookup: accepted, then reported by callback only. */
  async submit<TResult>(
    op: Operation<unknown, TResult>,
    input: CallInput,
  ): Promise<Submitted & { result: CallResult<TResult> }> {
    const { options, referenceId: id } = withReferenceId(input.options as RequestOptions);
    if (id) this.#ctx.operations.track(id, { operation: op.name });
    const result = await this.#journalled(op, id, { ...input, options });
    const referenceId = result.referenceId as string;
    return {
      referenceId,
      ...(result.callbackUrl ? { callbackUrl: result.callbackUrl } : {}),
      ...(result.requestId ? { requestId: result.requestId } : {}),
      result,
    };
  }

  /**
   * A creating call whose answer is its outcome (200, not 202): sent and journalled like
   * any creating call, then marked final at once.
   */
  async complete<TResult>(
    op: Operation<unknown, TResult>,
    input: CallInput,
  ): Promise<Submitted & { result: CallResult<TResult> }> {
    const submitted = await this.submit(op, input);
    await this.#ctx.outcomes.settle(submitted.referenceId, 'SUCCESSFUL');
    return submitted;
  }

  /**
   * One status lookup (each attempt through the client's admission stage: its
   * `lookupRate`, the pause after a 429); `deadline` is a wait's, honoured while queued
   * there; `wait` is that wait's telemetry. The result always names its reference id
   * (2.5 shows it only sometimes). A final result is settled (`outcomes`), unless
   * `settles` is false: the callback handler's lookups, whose confirmation settles what
   * they find.
   */
  async lookup<R>(
    op: Lookup<R>,
    referenceId: string,
    options?: RequestOptions,
    deadline?: number,
    wait?: WaitTrace,
    settles = true,
  ): Promise<R> {
    const answer = await this.#ctx.transport.call(op, {
      params: { referenceId },
      options,
      trace: wait,
      queuedUntil: deadline,
    });
    const result = answer.data;
    if (settles) {
      const status = (result as Partial<Status> | null)?.status;
      await this.#ctx.outcomes.settleStatus(referenceId, status); // a final lookup settles
    }
    if (result === null || typeof result !== 'object') return result;
    const named = 'referenceId' in result ? result : { referenceId, ...result };
    // The provider's request id, when it sent one: quoted in a support ticket.
    if (answer.requestId !== undefined) Object.assign(named, { requestId: answer.requestId });
    return named;
  }

  waitFor<R extends Status>(
    op: Lookup<R>,
    referenceId: string,
    options: WaitOptions<R> = NO_WAIT_OPTIONS,
    acceptedAt?: number,
    /** The lookup `create` tracked for this id: shared, not made again, per pending wait. */
    tracked?: (signal?: AbortSignal, deadline?: number, wait?: WaitTrace) => Promise<R>,
  ): Promise<Final<R>> {
    // Check the id up front so a bad one fails at once rather than after polling.
    const checked = this.#ctx.transport.check(op, { params: { referenceId } });
    if (checked) return Promise.reject(checked);
    const lookup =
      tracked ??
      (this.#ctx.operations.get(referenceId)?.confirmedBy
        ? this.#lookupOf(op, referenceId)
        : this.#track(op, referenceId));
    // The poller knows PENDING, SUCCESSFUL and FAILED; any other status (an invoice's
    // CREATED) is not final to it either, so the wider results pass through unchanged.
    const poller = this.#ctx.poller as unknown as Poller<R>;
    // The final result comes from a lookup or a confirmed callback that settled it already.
    return poller.wait(
      {
        operation: op.name,
        referenceId,
        lookup,
        acceptedAt, // a plain field, not a spread: a smaller object per pending wait
      },
      options,
    );
  }

  // --- scale-out: the journal of operations in flight ---

  /** Sends a creating call once the journal holds it (a bad input is neither sent nor recorded). */
  #journalled<T>(op: Operation<unknown, T>, referenceId: string | undefined, input: CallInput) {
    const { journal, transport, outcomes } = this.#ctx;
    return journal.send(
      op,
      referenceId,
      callerTag(input),
      (beforeSend) => transport.call(op, input, beforeSend),
      outcomes,
    );
  }

  /** Lets the callback handler confirm callbacks for this id by its lookup. */
  #track<R extends Status>(op: Lookup<R>, referenceId: string, operation = op.name) {
    // The handler compares final statuses only; a CREATED it reads as not final.
    const confirmedBy = op as unknown as Tracked['confirmedBy'];
    this.#ctx.operations.track(referenceId, { operation, confirmedBy });
    return this.#lookupOf(op, referenceId);
  }

  /**
   * A wait's lookups (called with its deadline) make one attempt each: the wait is their
   * retry loop, and every attempt passes the admission stage.
   */
  #lookupOf<R>(op: Lookup<R>, referenceId: string) {
    return (signal?: AbortSignal, deadline?: number, wait?: WaitTrace) =>
      deadline === undefined
        ? this.lookup(op, referenceId, signal ? { signal } : {}, undefined, wait)
        : this.lookup(op, referenceId, { signal, maxRetries: 0 }, deadline, wait);
  }
}

/** The poller's `wait` over results whose status may be wider than StatusLike's. */
interface Poller<R> {
  wait(request: WaitRequest<R>, options: WaitOptions<R>): Promise<Final<R>>;
}

/** Shared by every wait called without options (each pending wait keeps its options). */
const NO_WAIT_OPTIONS: WaitOptions<never> = Object.freeze({});

/** The journal entry's caller tag: the `tag` option, else the body's `externalId`. */
function callerTag(input: CallInput): string | undefined {
  const tag = (input.options as RequestOptions | undefined)?.tag;
  if (typeof tag === 'string') return tag;
  const externalId = (input.body as { externalId?: unknown } | null | undefined)?.externalId;
  return typeof externalId === 'string' && externalId !== '' ? externalId : undefined;
}
