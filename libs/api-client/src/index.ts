import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths as ProductionPaths } from './generated/production';
import type { paths as SandboxPaths } from './generated/sandbox';

// The merchant SDK, published as @pixauto/sdk (README.md beside this folder): typed clients of the merchant API from
// its OpenAPI documents (libs/api-client/openapi/*.json, `npm run api:generate`), the `pixauto` client with
// idempotency, retries and list iterators, and the webhook signature check.

export type { ProductionPaths, SandboxPaths };
export type { components as SandboxComponents } from './generated/sandbox';
export { pixauto, PixautoError, type Pixauto, type PixautoOptions } from './pixauto';
export { retryingFetch, retryDelayMs, type RetryOptions } from './retry';
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './webhooks';

export type MerchantClient<Paths extends object> = Client<Paths>;

/** The bare typed client of the production API (no retries, no Idempotency-Key of its own). */
export const productionClient = (baseUrl: string, apiKey: string, options: ClientOptions = {}): Client<ProductionPaths> =>
  createClient<ProductionPaths>({ ...options, baseUrl, headers: { ...options.headers, authorization: apiKey } });

/** The bare typed client of the sandbox: the production routes and the /v2/sandbox ones. */
export const sandboxClient = (baseUrl: string, apiKey: string, options: ClientOptions = {}): Client<SandboxPaths> =>
  createClient<SandboxPaths>({ ...options, baseUrl, headers: { ...options.headers, authorization: apiKey } });
