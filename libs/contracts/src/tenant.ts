// Production and sandbox data never mix: every command and query carries its tenant.
/** `production` (real money, real banks) or `sandbox` (simulated payer, banks and clock). Their data never mix. */
export type Environment = 'production' | 'sandbox';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];

export interface Tenant {
  accountId: string;
  environment: Environment;
}
