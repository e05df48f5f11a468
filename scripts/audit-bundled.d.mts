/** Types of audit-bundled.mjs for its tests (test/package/audit-bundled.test.ts). */
export interface BundledPackage {
  name: string;
  version: string;
  key: string;
}
export interface Advisory {
  name: string;
  severity: string;
  title: string;
  url: string;
}
export interface PackageLock {
  packages?: Record<string, Record<string, unknown> & { version?: string }>;
}
export declare function bundledPackages(root: string): Promise<BundledPackage[]>;
export declare function versionMismatches(bundled: BundledPackage[], lock: PackageLock): string[];
export declare function auditProject(
  bundled: BundledPackage[],
  lock: PackageLock,
): {
  packageJson: { dependencies: Record<string, string> };
  packageLock: Required<PackageLock> & { lockfileVersion: number };
};
export declare function readAudit(answer: {
  stdout: string;
  stderr: string;
}): { advisories: Advisory[] } | { unavailable: string };
export declare function auditBundled(
  bundled: BundledPackage[],
  lock: PackageLock,
  hooks?: {
    run?: (dir: string) => { stdout: string; stderr: string };
    sleep?: (ms: number) => Promise<void>;
  },
): Promise<{ advisories: Advisory[]; failing: Advisory[] } | { unavailable: string }>;
