import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/output';
import { LOG_INTERVAL_MS, progressOn } from '../../src/cli/progress';

// Progress on stderr: a line every few seconds in a log, one live line on a terminal.
function stderr(errIsTTY: boolean): Io & { text: string } {
  const io = {
    text: '',
    env: {},
    errIsTTY,
    out: () => undefined,
    err: (text: string) => {
      io.text += text;
    },
  };
  return io;
}

describe('CLI progress', () => {
  it('not a terminal: the first update at once, then one line per interval, and the last', () => {
    const io = stderr(false);
    let now = 0;
    const progress = progressOn(io, false, () => now);
    progress.update('1/9');
    now = LOG_INTERVAL_MS - 1;
    progress.update('2/9');
    now = LOG_INTERVAL_MS;
    progress.update('3/9');
    progress.update('4/9');
    progress.done('9/9');
    expect(io.text).toBe('1/9\n3/9\n9/9\n');
  });

  it('a terminal: one line redrawn in place, ended by the last', () => {
    const io = stderr(true);
    let now = 0;
    const progress = progressOn(io, false, () => now);
    progress.update('1/9');
    now = 1_000;
    progress.update('5/9');
    progress.done('9/9');
    expect(io.text).toBe('\r\u001b[2K1/9\r\u001b[2K5/9\r\u001b[2K9/9\n');
  });

  it('quiet (--json): nothing', () => {
    const io = stderr(false);
    const progress = progressOn(io, true);
    progress.update('1/9');
    progress.done('9/9');
    expect(io.text).toBe('');
  });
});
