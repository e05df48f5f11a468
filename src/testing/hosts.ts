/**
 * Host names as the simulator compares them: the Host header of a request to its HTTP
 * server, callback hosts, and the host-list options that widen either.
 */

/** A bare host name or IPv4 address: labels of letters, digits, hyphens; no scheme, port or path. */
export const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * `localhost`, `127.0.0.0/8` and `[::1]`, as `URL.hostname` spells them (lower case, IPv6
 * in brackets, IPv4 normalised). Names under `.localhost` are not counted: Node resolves
 * them through the system resolver, which may answer anything.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The host name of a URL or Host header value (`URL.hostname`), or undefined if it is none. */
export function hostNameOf(value: string, kind: 'url' | 'host'): string | undefined {
  const text = kind === 'host' ? `http://${value}/` : value;
  if (kind === 'host' && /[/?#@\\\s]/.test(value)) return undefined;
  return URL.canParse(text) ? new URL(text).hostname : undefined;
}

/**
 * A host-list option, checked and normalised to `URL.hostname` spelling: each entry a
 * bare host name (or `'*'` where `wildcard`). Throws a TypeError naming the option.
 */
export function hostList(
  values: readonly string[] | undefined,
  option: string,
  wildcard = false,
): readonly string[] {
  if (values === undefined) return [];
  if (!Array.isArray(values)) throw new TypeError(`${option} must be an array of host names`);
  return values.map((value: unknown) => {
    if (wildcard && value === '*') return '*';
    if (typeof value !== 'string' || !HOST_NAME.test(value)) {
      throw new TypeError(
        `${option}: ${JSON.stringify(value)} must be a bare host name such as "momo-sim" (no scheme, port or path)`,
      );
    }
    return value.toLowerCase();
  });
}
