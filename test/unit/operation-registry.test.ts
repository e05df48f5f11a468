import { describe, expect, it } from 'vitest';
import { OperationRegistry } from '../../src/settle/registry';

const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

describe('the operations a process tracks', () => {
  it('keeps the newest 10,000: past the bound, the oldest goes first, a re-tracked one counts as new', () => {
    const registry = new OperationRegistry();
    for (let i = 0; i < 10_000; i++) registry.track(idOf(i), { operation: `op${i}` });
    registry.track(idOf(0), { operation: 'again' }); // now the newest
    for (let i = 10_000; i < 10_003; i++) registry.track(idOf(i), { operation: `op${i}` });
    expect(registry.get(idOf(0))?.operation).toBe('again');
    for (const i of [1, 2, 3]) expect(registry.get(idOf(i))).toBeUndefined();
    expect(registry.get(idOf(4))?.operation).toBe('op4');
    // Evictions go on in order, however many come.
    for (let i = 10_003; i < 30_000; i++) registry.track(idOf(i), { operation: `op${i}` });
    expect(registry.get(idOf(0))).toBeUndefined();
    expect(registry.get(idOf(19_999))).toBeUndefined();
    expect(registry.get(idOf(20_000))?.operation).toBe('op20000');
    expect(registry.get(idOf(29_999))?.operation).toBe('op29999');
  });
});
