/** Production and sandbox data never mix: every command and query carries its tenant (platform.md §1). */
export type Environment = 'production' | 'sandbox';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];

export interface Tenant {
  accountId: string;
  environment: Environment;
}

/** How the gateway hands the authenticated tenant to a service (internal hop only; merchants never set these). */
export const TENANT_HEADERS = {
  accountId: 'x-pixauto-account-id',
  environment: 'x-pixauto-environment',
  requestId: 'x-request-id',
} as const;
