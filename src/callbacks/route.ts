import { TOKEN_PARAMETER, TOKEN_PLACEHOLDER } from '../core/callback-token';
import { parseUrl } from '../core/url';
import { ValidationError } from '../errors';
import { UUID_V4 } from '../schemas/common';

/** What a callback's URL says: the reference id and the token at their places, if any. */
export interface RouteMatch {
  referenceId?: string | undefined;
  token?: string | undefined;
}

/** Reads a callback URL; `undefined` when the URL is off the handler's template (404). */
export type RouteReader = (url: string) => RouteMatch | undefined;

const PLACEHOLDERS = { '{referenceId}': 'referenceId', [TOKEN_PLACEHOLDER]: 'token' } as const;
type Field = (typeof PLACEHOLDERS)[keyof typeof PLACEHOLDERS];
const MARK = (field: Field) => `momo-${field.toLowerCase()}-placeholder`;

/**
 * The reader of a handler's template: an absolute URL or a path (`/momo/{referenceId}`).
 * Its path is enforced (another path is not a callback route); `{referenceId}` and
 * `{callbackToken}` are read at their places in the path or in a query parameter, and,
 * with a secret, the token from the `callbackToken` parameter when the template does not
 * place it (the SDK appends it there). The template's other query parameters, and any
 * the sender adds, are not checked. Without a template: any path, the reference id
 * being its last UUID segment, the token the `callbackToken` parameter.
 */
export function routeReader(template: string | undefined): RouteReader {
  if (template === undefined) {
    return (url) => {
      const parsed = parseUrl(url);
      if (!parsed) return undefined;
      const segments = parsed.pathname.split('/').map(safeDecode);
      return {
        referenceId: segments.reverse().find((s) => UUID_V4.test(s)),
        token: parsed.searchParams.get(TOKEN_PARAMETER) ?? undefined,
      };
    };
  }
  const route = compile(template);
  return (url) => {
    const parsed = parseUrl(url);
    const matched = parsed && route.path.exec(parsed.pathname);
    if (!parsed || !matched) return undefined;
    const found: RouteMatch = {};
    route.pathFields.forEach((field, i) => {
      found[field] = safeDecode(matched[i + 1] ?? '');
    });
    for (const [name, field] of route.queryFields) {
      const value = parsed.searchParams.get(name);
      if (value !== null && found[field] === undefined) found[field] = value;
    }
    found.token ??= parsed.searchParams.get(TOKEN_PARAMETER) ?? undefined;
    return found;
  };
}

/** The path of a template as a route (placeholders kept), or undefined if it is not one. */
export function routeOf(template: string): string | undefined {
  try {
    const { pathTemplate } = compile(template);
    return pathTemplate;
  } catch {
    return undefined;
  }
}

interface Compiled {
  path: RegExp;
  pathTemplate: string;
  pathFields: Field[];
  queryFields: Array<[string, Field]>;
}

function compile(template: string): Compiled {
  let marked = template;
  for (const [placeholder, field] of Object.entries(PLACEHOLDERS)) {
    marked = marked.replaceAll(placeholder, MARK(field));
  }
  const absolute = URL.canParse(marked);
  if (!absolute && !marked.startsWith('/')) {
    throw new ValidationError(
      [
        {
          path: 'callbackUrl',
          message:
            'must be an absolute http(s) URL or a path beginning with "/", e.g. "/momo/callbacks/{referenceId}"',
        },
      ],
      { operation: 'callbacks.handler' },
    );
  }
  const url = new URL(marked, 'http://callback.invalid');
  const pathFields: Field[] = [];
  const markers = Object.values(PLACEHOLDERS).map(MARK).join('|');
  const parts = url.pathname.split(new RegExp(`(${markers})`));
  let source = '';
  let pathTemplate = '';
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      pathTemplate += part;
      return;
    }
    const field = part === MARK('referenceId') ? 'referenceId' : 'token';
    pathFields.push(field);
    source += '([^/]+)';
    pathTemplate += field === 'referenceId' ? '{referenceId}' : TOKEN_PLACEHOLDER;
  });
  const queryFields: Array<[string, Field]> = [];
  for (const [name, value] of url.searchParams) {
    if (value === MARK('referenceId')) queryFields.push([name, 'referenceId']);
    if (value === MARK('token')) queryFields.push([name, 'token']);
  }
  return { path: new RegExp(`^${source}/?$`), pathTemplate, pathFields, queryFields };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
