import { readFileSync } from 'node:fs';
import type { ParsedCommand } from './args';
import { type Io, UsageError } from './output';

/**
 * `--tenant <id>` with `--tenants-file <path>` (or MOMO_TENANTS_FILE): the command runs
 * with that tenant's credential set instead of the MOMO_* credentials of the
 * environment. The file is JSON, one set per tenant id:
 *
 *   { "merchant-42": { "baseUrl": "https://...", "targetEnvironment": "mtnuganda",
 *       "subscriptionKey": "env:MERCHANT42_KEY", "apiUser": "<uuid>",
 *       "apiKey": "env:MERCHANT42_API_KEY" } }
 *
 * The secrets (`subscriptionKey`, `apiKey`) must be environment references
 * (`env:NAME`): the file holds no secret, and no message ever prints one (only the
 * variables' names).
 */
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const ENV_REFERENCE = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;
const SECRETS = ['subscriptionKey', 'apiKey'] as const;
const PLAIN = ['baseUrl', 'targetEnvironment', 'apiUser'] as const;

/** The flags every connection command takes for it. */
export const TENANT_FLAGS = {
  tenant: { type: 'string' },
  'tenants-file': { type: 'string' },
} as const;

export const TENANT_HELP = `Tenants (an aggregator's merchants, docs/tenants.md):
  --tenant <id>                the credential set of this tenant, read from
  --tenants-file <path>        MOMO_TENANTS_FILE: JSON { "<id>": { baseUrl, targetEnvironment,
                               subscriptionKey: "env:NAME", apiUser, apiKey: "env:NAME" } }
`;

/**
 * The environment the command runs with: as given without `--tenant`; with it, every
 * MOMO_* credential variable dropped (no other set's credential may reach the tenant's
 * client) and the tenant's set put in their place.
 */
export function tenantEnv(io: Io, args: ParsedCommand): Io['env'] {
  const tenant = args.text('tenant');
  if (tenant === undefined) return io.env;
  if (!TENANT_ID.test(tenant)) {
    throw new UsageError(
      '--tenant must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or a digit.',
    );
  }
  const path = args.text('tenants-file') ?? io.env.MOMO_TENANTS_FILE;
  if (!path) throw new UsageError('--tenant needs --tenants-file <path> (or MOMO_TENANTS_FILE).');
  const set = readSet(path, tenant);
  const value = (field: (typeof SECRETS)[number] | (typeof PLAIN)[number]): string | undefined => {
    const raw = set[field];
    if (raw === undefined) return undefined;
    if (typeof raw !== 'string' || raw === '') {
      throw new UsageError(`${path}: ${tenant}.${field} must be a string.`);
    }
    const reference = ENV_REFERENCE.exec(raw);
    if (reference) {
      const name = reference[1] as string;
      const resolved = io.env[name];
      if (!resolved) throw new UsageError(`${path}: ${tenant}.${field}: ${name} is not set.`);
      return resolved;
    }
    if ((SECRETS as readonly string[]).includes(field)) {
      throw new UsageError(
        `${path}: ${tenant}.${field} must be an environment reference ("env:NAME"): secrets stay out of the file.`,
      );
    }
    return raw;
  };
  const env: Record<string, string | undefined> = {};
  for (const [name, variable] of Object.entries(io.env)) {
    if (!/^MOMO_([A-Z]+_)?(SUBSCRIPTION_KEY|API_USER|API_KEY)$/.test(name)) env[name] = variable;
  }
  const put = (name: string, field: (typeof SECRETS)[number] | (typeof PLAIN)[number]) => {
    const resolved = value(field);
    if (resolved !== undefined) env[name] = resolved;
  };
  put('MOMO_BASE_URL', 'baseUrl');
  put('MOMO_TARGET_ENVIRONMENT', 'targetEnvironment');
  put('MOMO_SUBSCRIPTION_KEY', 'subscriptionKey');
  put('MOMO_API_USER', 'apiUser');
  put('MOMO_API_KEY', 'apiKey');
  return env;
}

function readSet(path: string, tenant: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`${path}: cannot read the tenants file.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${path}: not JSON ({ "<tenant id>": { ...credential set } }).`);
  }
  const set = (parsed as Record<string, unknown> | null)?.[tenant];
  if (typeof set !== 'object' || set === null || Array.isArray(set)) {
    throw new UsageError(`${path}: no tenant '${tenant}'.`);
  }
  return set as Record<string, unknown>;
}
