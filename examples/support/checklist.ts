/**
 * What every example shares: print each check, count the failures, and end the run with
 * "<name> passed." and exit code 0, or a FAILED line and exit code 1.
 */
export function checklist(name: string) {
  let failures = 0;
  return {
    check(ok: boolean, what: string): void {
      console.log(`   ${ok ? 'ok  ' : 'FAIL'} ${what}`);
      if (!ok) failures++;
    },
    fail(error: unknown): void {
      console.error('\nUnexpected error:', error);
      failures++;
    },
    finish(): void {
      console.log(failures === 0 ? `\n${name} passed.` : `\n${name} FAILED: ${failures} check(s).`);
      process.exitCode = failures === 0 ? 0 : 1;
    },
  };
}
