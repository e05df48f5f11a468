import type { Engine } from './engine';
import { type CoreHandler, codeError, empty, json } from './http';
import type { Decision, Fault, Reason } from './types';

/**
 * HTTP control routes under `/_simulator/`, so that curl users and other languages can
 * steer a simulator served over HTTP (`sim.listen()` and the CLI): settle an operation,
 * approve or decline a pending one (or a consent request), answer a consent request, inject a fault, read the state, reset. Everything else goes
 * to the simulated API. No subscription key: this is a loopback test server.
 */
export const CONTROL_PREFIX = '/_simulator/';

export function withControlRoutes(engine: Engine): CoreHandler {
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(CONTROL_PREFIX)) return engine.handle(request);
    return control(
      engine,
      request.method.toUpperCase(),
      pathname.slice(CONTROL_PREFIX.length),
      request,
    );
  };
}

async function control(engine: Engine, method: string, path: string, request: Request) {
  const settle = /^operations\/([^/]+)\/settle$/.exec(path);
  const decision = /^operations\/([^/]+)\/(approve|decline)$/.exec(path);
  const consent = /^consent\/([^/]+)\/(approve|deny)$/.exec(path);
  const allow = (wanted: string) => (method === wanted ? undefined : notAllowed(wanted));
  if (settle) return allow('POST') ?? settleOperation(engine, decode(settle[1]), request);
  if (decision) {
    const decided = decision[2] === 'approve' ? 'approve' : 'decline';
    return allow('POST') ?? decide(engine, decode(decision[1]), decided, request);
  }
  if (consent) {
    return (
      allow('POST') ?? answerConsent(engine, decode(consent[1]), consent[2] === 'approve', request)
    );
  }
  if (path === 'faults') return allow('POST') ?? injectFault(engine, request);
  if (path === 'clock') return allow('GET') ?? json(200, { now: engine.clock.now() });
  if (path === 'clock/advance') return allow('POST') ?? advanceClock(engine, request);
  if (path === 'state') return allow('GET') ?? json(200, state(engine));
  if (path === 'reset') {
    if (method !== 'POST') return notAllowed('POST');
    engine.reset();
    return empty(204);
  }
  return codeError(404, 'NOT_FOUND', `No such control route: ${method} /_simulator/${path}`);
}

/**
 * `POST /_simulator/clock/advance` `{ "ms": n }`: the simulator's time moved on (what came
 * due settles), so that its owner can run a year against it from another process; 200
 * `{ now }`. Guarded as every control route (a JSON POST, the loopback host).
 */
async function advanceClock(engine: Engine, request: Request) {
  const body = await readJson(request);
  const ms = body?.ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    return codeError(400, 'BAD_REQUEST', 'ms must be a finite number >= 0.');
  }
  engine.clock.advance(ms);
  return json(200, { now: engine.clock.now() });
}

async function settleOperation(engine: Engine, referenceId: string, request: Request) {
  const body = await readJson(request);
  const status = body?.status;
  if (status !== 'SUCCESSFUL' && status !== 'FAILED') {
    return codeError(400, 'BAD_REQUEST', 'status must be SUCCESSFUL or FAILED.');
  }
  const reason = readReason(body?.reason);
  if (reason === 'invalid') {
    return codeError(400, 'BAD_REQUEST', 'reason must be {code, message} strings.');
  }
  const tx = engine.transaction(referenceId);
  if (!tx) return codeError(404, 'NOT_FOUND', `No transaction ${referenceId}.`);
  if (tx.status !== 'PENDING') {
    return codeError(409, 'NOT_PENDING', `Transaction ${referenceId} is already ${tx.status}.`);
  }
  engine.settle(referenceId, status, reason);
  return json(200, engine.transaction(referenceId));
}

/**
 * The account holder decides a pending transaction or consent request (`sim.decide()`):
 * 200 with the transaction or consent request after it; 404 unknown; 409 not pending.
 */
async function decide(engine: Engine, id: string, decision: Decision, request: Request) {
  await request.arrayBuffer(); // no body expected; drained so the connection is reusable
  const tx = engine.transaction(id);
  const wanted = id.toLowerCase();
  const consent = () => engine.consentRequests.find((c) => c.authReqId.toLowerCase() === wanted);
  const state = tx ? tx.status : consent()?.status;
  if (state === undefined) {
    return codeError(404, 'NOT_FOUND', `No transaction or consent request ${id}.`);
  }
  if (state !== 'PENDING' && state !== 'pending') {
    return codeError(409, 'NOT_PENDING', `${id} is already ${state}.`);
  }
  engine.decide(id, decision);
  return json(200, tx ? engine.transaction(id) : consent());
}

async function answerConsent(
  engine: Engine,
  authReqId: string,
  approve: boolean,
  request: Request,
) {
  await request.arrayBuffer(); // no body expected; drained so the connection is reusable
  const wanted = authReqId.toLowerCase();
  const find = () => engine.consentRequests.find((c) => c.authReqId.toLowerCase() === wanted);
  const found = find();
  if (!found) return codeError(404, 'NOT_FOUND', `No consent request ${authReqId}.`);
  if (found.status !== 'pending') {
    return codeError(
      409,
      'NOT_PENDING',
      `Consent request ${authReqId} is already ${found.status}.`,
    );
  }
  if (approve) engine.approveConsent(found.authReqId);
  else engine.denyConsent(found.authReqId);
  return json(200, find());
}

const FAULT_KINDS = ['drop-after-processing', 'drop-before-processing', 'status', 'delay'];

async function injectFault(engine: Engine, request: Request) {
  const body = await readJson(request);
  if (!body || !FAULT_KINDS.includes(body.kind as string)) {
    return codeError(400, 'BAD_REQUEST', `kind must be one of ${FAULT_KINDS.join(', ')}.`);
  }
  if (body.match !== undefined && typeof body.match !== 'string') {
    return codeError(400, 'BAD_REQUEST', 'match must be a string such as "POST /path".');
  }
  if (body.kind === 'status' && typeof body.status !== 'number') {
    return codeError(400, 'BAD_REQUEST', 'status must be a number for kind "status".');
  }
  if (body.kind === 'delay' && typeof body.ms !== 'number') {
    return codeError(400, 'BAD_REQUEST', 'ms must be a number for kind "delay".');
  }
  try {
    engine.inject(body as unknown as Fault);
  } catch (error) {
    return codeError(400, 'BAD_REQUEST', (error as Error).message);
  }
  return json(201, body);
}

function state(engine: Engine) {
  return {
    credentials: engine.credentials,
    transactions: engine.transactions,
    consentRequests: engine.consentRequests,
    callbacks: engine.callbacks,
    deliveryNotifications: engine.deliveryNotifications,
    requestCount: engine.requests.length,
    rateLimited: engine.internals.limiter.refused,
  };
}

async function readJson(request: Request): Promise<Record<string, unknown> | undefined> {
  const text = await request.text();
  try {
    const value: unknown = text === '' ? undefined : JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function readReason(value: unknown): Reason | undefined | 'invalid' {
  if (value === undefined) return undefined;
  const r = value as Partial<Reason> | null;
  const ok = typeof r?.code === 'string' && typeof r.message === 'string';
  return ok ? { code: r.code as string, message: r.message as string } : 'invalid';
}

function notAllowed(allow: string): Response {
  return json(405, { code: 'NOT_ALLOWED', message: `Use ${allow}.` }, { allow });
}

function decode(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    return value ?? '';
  }
}
