import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's chromium, driven by playwright-core: nothing is downloaded. CHROMIUM_PATH
 * wins, then /usr/bin/chromium, then `which chromium`.
 */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'];
  const found = candidates.find((path) => path && existsSync(path));
  if (found) return found;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** In CI a missing browser is a failure, never a skip; locally the suite skips without one. */
export const skipBrowser = findChromium() === undefined && !process.env.CI;

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === undefined) {
    throw new Error('chromium not found: apt-get install chromium, or set CHROMIUM_PATH');
  }
  return chromium.launch({ executablePath, args: ['--no-sandbox'], headless: true });
}
