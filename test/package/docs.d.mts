/** Types of docs.mjs for the vitest test that runs its checks (test/docs/links.test.ts). */
export declare const KNOWN_UNMARKED: readonly { file: string; cited: string }[];
export declare function packedFiles(root: string): Set<string>;
export declare function packedDocs(shipped: Set<string>): string[];
export declare function brokenLinks(
  root: string,
  shipped: Set<string>,
): { broken: string[]; checked: number };
export declare function unmarkedCitations(root: string, shipped: Set<string>): string[];
