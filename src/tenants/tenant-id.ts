import { MomoError, ValidationError } from 'momo-partner-sdk';

/**
 * A tenant id: letters, digits, `.`, `_` and `-`, starting with a letter or a digit, at
 * most 128 characters. It names the tenant in callback URLs (a path segment, never
 * encoded), journal entries and logs, so nothing that could leave its segment (`/`, `..`,
 * `%`, `?`, `#`) or hide in a log line is allowed.
 */
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Whether `id` is a valid tenant id. */
export function isTenantId(id: unknown): id is string {
  return typeof id === 'string' && TENANT_ID.test(id);
}

/** The id, checked: a ValidationError names `field` otherwise. */
export function checkTenantId(id: unknown, operation: string, field = 'tenantId'): string {
  if (isTenantId(id)) return id;
  throw new ValidationError(
    [
      {
        path: field,
        message:
          'must be 1-128 letters, digits, ".", "_" or "-", starting with a letter or a digit (it is a URL path segment)',
      },
    ],
    { operation },
  );
}

/** `resolve(tenantId)` knew no such tenant. */
export class UnknownTenantError extends MomoError {
  /** The id asked for. */
  readonly tenant: string;

  constructor(tenant: string, operation: string) {
    super(`no tenant '${tenant}': resolve() returned nothing for it`, { operation });
    this.tenant = tenant;
  }
}
