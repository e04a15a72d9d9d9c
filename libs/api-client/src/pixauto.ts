import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, paths as SandboxPaths } from './generated/sandbox';
import { retryingFetch, type RetryOptions } from './retry';

// The merchant API as an SDK: every route typed from its OpenAPI document, an Idempotency-Key on every POST, the
// answers that say "later" retried as Retry-After asks, and each paged list as one iterator.

export interface PixautoOptions extends RetryOptions {
  /** Your API key: a sandbox key with the sandbox's address, a production key with production's. */
  apiKey: string;
  /** The API's address, e.g. the sandbox's. */
  baseUrl: string;
  /** The fetch to send requests with (default: the runtime's). */
  fetch?: typeof globalThis.fetch;
}

/** An answer that was not a success, as the API gave it: its status and its body ({ message } or the fields' problems). */
export class PixautoError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const message = (body as { message?: unknown } | undefined)?.message;
    super(typeof message === 'string' ? message : `HTTP ${status}`);
    this.name = 'PixautoError';
  }
}

type Schemas = components['schemas'];
type QueryOf<Path extends keyof SandboxPaths> = SandboxPaths[Path] extends { get: { parameters: { query?: infer Query } } } ? NonNullable<Query> : never;
/** A list's filters, without its paging: the iterator pages. */
type Filters<Path extends keyof SandboxPaths> = Omit<QueryOf<Path>, 'page'>;

export interface Pixauto {
  /** Every route of the merchant API, typed: `api.POST('/v2/pix', { body })` answers `{ data, error, response }`. */
  api: Client<SandboxPaths>;
  recurrences(filters: Filters<'/v2/automatic-pix/recurrences'>): AsyncGenerator<Schemas['RecurrenceListResponse']['recurrences'][number]>;
  pixCharges(filters: Filters<'/v2/pix/charges'>): AsyncGenerator<Schemas['PixChargeListResponse']['charges'][number]>;
  refunds(filters: Filters<'/v2/transactions/refunds'>): AsyncGenerator<Schemas['RefundListResponse']['refunds'][number]>;
  payouts(filters: Filters<'/v2/withdrawals/period'>): AsyncGenerator<Schemas['PayoutPageResponse']['data'][number]>;
  webhookDeliveries(filters?: Filters<'/v2/webhooks/deliveries'>): AsyncGenerator<Schemas['DeliveryListResponse']['deliveries'][number]>;
}

/** Sets an Idempotency-Key on a POST that has none: a retry, ours or yours with the same key, is answered once. */
const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', globalThis.crypto.randomUUID());
    return request;
  },
};

/** The data of a success, or the answer as a PixautoError. */
export function dataOf<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) throw new PixautoError(answer.response.status, answer.error);
  return answer.data;
}

/** Every item of a paged list, asking for a page when the previous one is used up. */
async function* everyItem<T>(firstPage: number, pageOf: (page: number) => Promise<{ items: T[]; pages: number }>): AsyncGenerator<T> {
  for (let page = firstPage; ; page++) {
    const { items, pages } = await pageOf(page);
    yield* items;
    if (items.length === 0 || page - firstPage + 1 >= pages) return;
  }
}

export function pixauto(options: PixautoOptions): Pixauto {
  const { apiKey, baseUrl, fetch, ...retry } = options;
  const clientOptions: ClientOptions = { baseUrl, headers: { authorization: apiKey }, fetch: retryingFetch(fetch ?? globalThis.fetch, retry) };
  const api = createClient<SandboxPaths>(clientOptions);
  api.use(idempotencyKeys);
  return {
    api,
    recurrences: (filters) =>
      everyItem(0, async (page) => {
        const list = dataOf(await api.GET('/v2/automatic-pix/recurrences', { params: { query: { ...filters, page } } }));
        return { items: list.recurrences, pages: list.pagination.total_pages };
      }),
    pixCharges: (filters) =>
      everyItem(0, async (page) => {
        const list = dataOf(await api.GET('/v2/pix/charges', { params: { query: { ...filters, page } } }));
        return { items: list.charges, pages: list.pagination.total_pages };
      }),
    refunds: (filters) =>
      everyItem(0, async (page) => {
        const list = dataOf(await api.GET('/v2/transactions/refunds', { params: { query: { ...filters, page } } }));
        return { items: list.refunds, pages: list.pagination.total_pages };
      }),
    // This list counts its pages from 1.
    payouts: (filters) =>
      everyItem(1, async (page) => {
        const list = dataOf(await api.GET('/v2/withdrawals/period', { params: { query: { ...filters, page } } }));
        return { items: list.data, pages: list.count_pages };
      }),
    webhookDeliveries: (filters = {}) =>
      everyItem(0, async (page) => {
        const list = dataOf(await api.GET('/v2/webhooks/deliveries', { params: { query: { ...filters, page } } }));
        return { items: list.deliveries, pages: list.pagination.total_pages };
      }),
  };
}
