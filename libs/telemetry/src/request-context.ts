import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What every log line of one request's work carries, wherever it runs: the gateway, a service, a consumer. */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The request being served here, if any. */
export const currentRequest = (): RequestContext | undefined => storage.getStore();

/** Runs `work` (and everything it starts) as part of the request: its log lines and the events it appends carry its id. */
export const withRequest = <T>(request: RequestContext, work: () => T): T => storage.run(request, work);

/**
 * Runs `work` outside any request: a connection it opens belongs to none, so the later events of its socket (an
 * error, a close) are not logged under the id of the request that happened to open it.
 */
export const outsideRequest = <T>(work: () => T): T => storage.exit(work);

/** The HTTP header a caller may name its request by, and in which the gateway returns the id it used. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** The Kafka/outbox header that carries the id with an event. */
export const REQUEST_ID_EVENT_HEADER = 'request-id';

/** A caller's id is taken as it is only if it is short and plain: it goes into every log line of the request. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is acceptable, a new UUID otherwise. */
export const requestIdFrom = (header: unknown): string => (typeof header === 'string' && ACCEPTABLE_REQUEST_ID.test(header) ? header : randomUUID());

/** An id carried in a message (RPC envelope, Kafka header): kept when acceptable, otherwise none. */
export const carriedRequestId = (value: unknown): string | undefined => (typeof value === 'string' && ACCEPTABLE_REQUEST_ID.test(value) ? value : undefined);
