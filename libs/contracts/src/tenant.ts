/** Production and sandbox data never mix: every command and query carries its tenant (platform.md §1). */
export type Environment = 'production' | 'sandbox';
export const ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];

export interface Tenant {
  accountId: string;
  environment: Environment;
}
