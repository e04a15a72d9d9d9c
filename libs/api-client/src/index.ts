import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths as AdminPaths } from './generated/admin';
import type { paths as ProductionPaths } from './generated/production';
import type { paths as SandboxPaths } from './generated/sandbox';

// A typed client of the gateway's three listeners, from their OpenAPI documents (libs/api-client/openapi/*.json,
// npm run api:generate): a path, its parameters, body and answers are checked by the compiler against the document.

export type { AdminPaths, ProductionPaths, SandboxPaths };
export type { components as SandboxComponents } from './generated/sandbox';
export type { components as AdminComponents } from './generated/admin';

export type MerchantClient<Paths extends object> = Client<Paths>;

/** The merchant API with an API key: production keys on PORT, sandbox keys on SANDBOX_PORT. */
export const productionClient = (baseUrl: string, apiKey: string, options: ClientOptions = {}): Client<ProductionPaths> =>
  createClient<ProductionPaths>({ ...options, baseUrl, headers: { ...options.headers, authorization: apiKey } });

/** The sandbox listener: the production routes and the /v2/sandbox ones. */
export const sandboxClient = (baseUrl: string, apiKey: string, options: ClientOptions = {}): Client<SandboxPaths> =>
  createClient<SandboxPaths>({ ...options, baseUrl, headers: { ...options.headers, authorization: apiKey } });

/** The operator API with the admin token. */
export const adminClient = (baseUrl: string, adminToken: string, options: ClientOptions = {}): Client<AdminPaths> =>
  createClient<AdminPaths>({ ...options, baseUrl, headers: { ...options.headers, authorization: `Bearer ${adminToken}` } });
