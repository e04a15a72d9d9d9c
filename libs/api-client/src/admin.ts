import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths as AdminPaths } from './generated/admin';

// The operator API's typed client: the monorepo's own (the console server, the tests), never in the merchants' package.

export type { AdminPaths };
export type { components as AdminComponents } from './generated/admin';

/** The operator API with the admin token. */
export const adminClient = (baseUrl: string, adminToken: string, options: ClientOptions = {}): Client<AdminPaths> =>
  createClient<AdminPaths>({ ...options, baseUrl, headers: { ...options.headers, authorization: `Bearer ${adminToken}` } });
