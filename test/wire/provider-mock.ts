import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { type PrismMock, startPrism, type Verdict } from '../support/prism';

export type DocumentName = 'collection' | 'disbursement' | 'remittance';

/** The provider's own document, as copied into test/fixtures/oracle. */
export function providerDocument(name: DocumentName): Record<string, unknown> {
  const file = fileURLToPath(new URL(`../fixtures/oracle/${name}.json`, import.meta.url));
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+/;

/**
 * The document with its invalid response media types dropped ("Successful Invoice
 * Deleted", "Incorrect target environment"... portal artefacts used as content keys):
 * Prism's response checker crashes on them. Nothing that validates a request changes.
 */
function withValidMediaTypes(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    const items = key === 'produces' ? value.filter((v) => MEDIA_TYPE.test(String(v))) : value;
    return items.map((item) => withValidMediaTypes(item));
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if ((key === 'content' || key === 'examples') && !MEDIA_TYPE.test(k)) continue;
    out[k] = withValidMediaTypes(v, k);
  }
  return out;
}

export interface ProviderMock {
  prism: PrismMock;
  /** A client whose requests reach the mock with the product prefix stripped (oracle/README.md). */
  client(options?: Partial<MomoClientOptions>): MomoClient;
  /** Verdicts of the requests sent while `run` ran. */
  verdictsOf(run: () => Promise<unknown>): Promise<{ verdicts: Verdict[]; outcome: unknown }>;
}

export async function startProviderMock(name: DocumentName): Promise<ProviderMock> {
  const file = join(tmpdir(), `momo-oracle-${process.pid}-${name}.json`);
  writeFileSync(file, JSON.stringify(withValidMediaTypes(providerDocument(name))));
  const prism = await startPrism(file, 90_000);
  // Prism ignores a document's base path: strip the product prefix before sending.
  const stripping: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/^\/(?:collection|disbursement|remittance)(?=\/)/, '');
    const response = await prism.fetch(new Request(url, request));
    // Where an operation declares no 400, Prism reports a bad request as 422 with a
    // `validation` list (oracle/README.md): count those as request violations too.
    if (response.status === 422) {
      const problem = (await response.clone().json()) as {
        validation?: { location?: string[]; message?: string }[];
      };
      prism.verdicts
        .at(-1)
        ?.requestViolations.push(
          ...(problem.validation ?? [])
            .filter((v) => v.location?.[0] === 'request')
            .map((v) => `${v.location?.join('.')}: ${v.message}`),
        );
    }
    return response;
  };
  return {
    prism,
    client: (options = {}) =>
      new MomoClient({
        baseUrl: prism.url,
        targetEnvironment: 'sandbox',
        subscriptionKey: 'oracle-subscription-key',
        apiUser: { id: '2f1b6a0e-51a1-4c4f-9c39-2d8f6a4a1e70', key: 'oracle-api-key' },
        callbackUrl: 'https://partner.example/momo/{referenceId}',
        fetch: stripping,
        maxRetries: 0,
        ...options,
      }),
    async verdictsOf(run) {
      const before = prism.verdicts.length;
      let outcome: unknown;
      try {
        outcome = await run();
      } catch (error) {
        outcome = error;
      }
      return { verdicts: prism.verdicts.slice(before), outcome };
    },
  };
}

/** Every operation of a document (the two remittance portal artefacts excluded), as `METHOD /path`. */
export function documentOperations(name: DocumentName): string[] {
  const paths = providerDocument(name).paths as Record<string, Record<string, unknown>>;
  const operations: string[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    if (path.includes('clone-') || path.includes('999{')) continue;
    for (const method of Object.keys(methods)) {
      if (['get', 'post', 'put', 'delete'].includes(method)) {
        operations.push(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  return operations;
}

/** The error statuses a document gives an operation (`METHOD /path`, the document's path). */
export function documentedErrors(name: DocumentName, operation: string): number[] {
  const [method = '', path = ''] = operation.split(' ');
  const paths = providerDocument(name).paths as Record<
    string,
    Record<string, { responses?: Record<string, unknown> }>
  >;
  const responses = paths[path]?.[method.toLowerCase()]?.responses ?? {};
  return Object.keys(responses)
    .map(Number)
    .filter((status) => status >= 400);
}
