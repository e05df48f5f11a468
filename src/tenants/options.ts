import { ValidationError, type ValidationIssue } from 'momo-partner-sdk';
import type { TenantRates, TenantsOptions } from './types';

/** The default number of live clients. */
export const DEFAULT_MAX_LIVE = 500;

/** `new Tenants(options)`'s options, checked once. */
export interface CheckedTenantsOptions extends TenantsOptions {
  maxLive: number;
  resumeOnUse: boolean;
}

const OPERATION = 'new Tenants';

/** The options, checked: a ValidationError names every bad field. */
export function checkTenantsOptions(options: TenantsOptions): CheckedTenantsOptions {
  const issues: ValidationIssue[] = [];
  if (typeof options?.resolve !== 'function') {
    issues.push({ path: 'resolve', message: 'must be a function (tenantId) => credentials' });
  }
  const maxLive = options?.maxLive ?? DEFAULT_MAX_LIVE;
  if (!Number.isInteger(maxLive) || maxLive < 1) {
    issues.push({ path: 'maxLive', message: 'must be a whole number, 1 or more' });
  }
  checkRates(options?.limits, 'limits', issues);
  checkRates(options?.globalLimits, 'globalLimits', issues);
  const global = options?.globalLimits;
  const wantsGlobal = global?.createRate !== undefined || global?.lookupRate !== undefined;
  if (wantsGlobal && options?.shared?.rateBudget === undefined) {
    issues.push({
      path: 'globalLimits',
      message:
        'needs shared.rateBudget (all tenants together are counted there: createRedisState(redis).rateBudget or createPostgresState(pool).rateBudget)',
    });
  }
  const template = options?.callbackUrl;
  if (template !== undefined && !namesTenantBeforeReference(template)) {
    issues.push({
      path: 'callbackUrl',
      message: 'must name the tenant right before the reference id: .../{tenant}/{referenceId}',
    });
  }
  if (issues.length > 0) throw new ValidationError(issues, { operation: OPERATION });
  return { ...options, maxLive, resumeOnUse: options.resumeOnUse ?? true };
}

function checkRates(rates: TenantRates | undefined, path: string, issues: ValidationIssue[]) {
  if (rates === undefined) return;
  if (typeof rates !== 'object' || rates === null) {
    issues.push({ path, message: 'must be an object { createRate?, lookupRate? }' });
    return;
  }
  for (const name of ['createRate', 'lookupRate'] as const) {
    const rate = rates[name];
    if (rate !== undefined && !(typeof rate === 'number' && Number.isFinite(rate) && rate > 0)) {
      issues.push({
        path: `${path}.${name}`,
        message: 'must be a number of calls per second, above 0',
      });
    }
  }
}

/** Whether a template's path has `{tenant}` as the segment right before `{referenceId}`. */
function namesTenantBeforeReference(template: string): boolean {
  return (
    typeof template === 'string' &&
    template.split('?')[0]?.includes('/{tenant}/{referenceId}') === true
  );
}

/**
 * A tenant's callback URL: its credentials' (`{tenant}` filled), else the template's. The
 * path must then name the tenant right before `{referenceId}`: the receiver routes by it.
 */
export function tenantCallbackUrl(
  tenant: string,
  own: string | undefined,
  template: string | undefined,
): string | undefined {
  const url = (own ?? template)?.replaceAll('{tenant}', tenant);
  if (url === undefined) return undefined;
  if (!url.split('?')[0]?.includes(`/${tenant}/{referenceId}`)) {
    throw new ValidationError(
      [
        {
          path: 'callbackUrl',
          message: `of tenant '${tenant}' must name it right before the reference id: .../${tenant}/{referenceId} (or .../{tenant}/{referenceId})`,
        },
      ],
      { operation: 'tenants.client' },
    );
  }
  return url;
}
