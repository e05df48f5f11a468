/**
 * The provider's fault decisions of test/integration/one-call-fault.test.ts, made in the
 * provider's own process (test/support/workers/fault-provider.ts) by the fault proxy in
 * front of its simulator: only a scenario's name and the number of calls cross IPC.
 */
import type { ProxiedRequest, ProxyFault } from './fault-proxy';

/** 'storm': every 9th deposit answered 429 Retry-After 1, continuing; 'mix': `faultMix`. */
export type FaultScenario = 'storm' | 'mix';

const DEPOSIT = '/disbursement/v1_0/deposit';

/** The call index of a deposit request (its body's externalId `order-<i>`), -1 for anything else. */
export function callOf(request: ProxiedRequest): number {
  if (request.method !== 'POST' || !request.path.startsWith(DEPOSIT)) return -1;
  const match = /"externalId":"order-(\d+)"/.exec(request.body);
  return match ? Number(match[1]) : -1;
}

/** Every 9th deposit request (of any call, first send or retry) answered 429 Retry-After: 1. */
function storm() {
  let deposits = 0;
  return (request: ProxiedRequest): ProxyFault | undefined => {
    if (callOf(request) < 0) return undefined;
    deposits++;
    return deposits % 9 === 0
      ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } }
      : undefined;
  };
}

/** Each call's own fault by its index: at most one, on its first send; the last call 503s every time. */
function faultMix(calls: number) {
  const sends = new Map<number, number>();
  return (request: ProxiedRequest): ProxyFault | undefined => {
    const call = callOf(request);
    if (call < 0) return undefined;
    const send = sends.get(call) ?? 0;
    sends.set(call, send + 1);
    if (call === calls - 1) return { kind: 'status', status: 503 };
    if (send > 0) return undefined;
    switch (call % 9) {
      case 0:
        return { kind: 'status', status: 429, headers: { 'retry-after': '1' } };
      case 1:
        return { kind: 'status', status: 503 };
      case 2:
        return { kind: 'drop-before' };
      case 3:
        return { kind: 'drop-after' };
      case 4:
        return { kind: 'late', ms: 1_500 };
      default:
        return undefined;
    }
  };
}

/** A fresh `decide` for the fault proxy: the scenario's state starts at zero. */
export function decideFor(
  scenario: FaultScenario,
  calls: number,
): (request: ProxiedRequest) => ProxyFault | undefined {
  return scenario === 'storm' ? storm() : faultMix(calls);
}
