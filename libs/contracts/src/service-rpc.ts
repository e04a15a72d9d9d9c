import { RateLimits } from './accounts/account.types';
import { Topics, TopicSpec } from './events';
import { Tenant } from './tenant';

/**
 * Gateway → service calls travel as NestJS TCP messages (chosen by measurement, docs/performance.md "Gateway to service
 * transport"). The request carries the authenticated tenant; the reply is HTTP-shaped, so the gateway passes it on
 * untouched.
 */
/** What a service may need to know of the calling account; the gateway adds it where a route asks for it. */
export interface AccountProfile {
  name: string;
  wallet: boolean;
  cashin_provider: string;
  /** Absent in a profile cached before rate limits: DEFAULT_RATE_LIMITS. */
  rate_limit?: RateLimits;
}

export interface ServiceRequest {
  tenant: Tenant;
  account?: AccountProfile;
  body?: unknown;
  query?: Record<string, unknown>;
  params?: Record<string, string>;
  /** Sandbox: the tenant's test-clock offset as the gateway knows it. */
  clock_offset_ms?: number;
  /**
   * Epoch milliseconds after which the gateway will have given up waiting: a service that has not begun the request by
   * then answers 503 without doing anything (docs/decisions/overload-and-outages.md "Overload"). Absolute, as gRPC's
   * deadlines: a request's time in the service's queues counts too.
   */
  deadline_ms?: number;
  /** The request's id (X-Request-Id, or the gateway's own): the service's log lines and the events it appends carry it. */
  request_id?: string;
  /**
   * W3C trace context (traceparent, tracestate) of the gateway's span, when tracing is on (docs/operations.md "Logs and
   * traces").
   */
  trace?: Record<string, string>;
  /**
   * The events the merchant's own writes of the last minute appended, sent by the gateway with a read that a service
   * answers from events it follows on Kafka (FOLLOWER_FED_READS): the service answers once its followers have applied
   * those they follow, or 503 (docs/decisions/read-your-writes.md).
   */
  written?: WrittenPosition[];
}

/** An event a write appended: its topic, its type, and where it stands in its stream (the stream's events reach a follower in order). */
export interface WrittenPosition {
  topic: string;
  type: string;
  stream: string;
  version: number;
}

export interface ServiceReply {
  status: number;
  body?: unknown;
  /**
   * The body already as JSON text, in place of `body`: a reply whose JSON was built where it was read (a page of
   * payouts, by PostgreSQL) goes to the merchant as it is, never parsed and serialized again on the way.
   */
  json?: string;
  /** Headers the merchant's answer carries (Retry-After of a 503). */
  headers?: Record<string, string>;
  /** The events this request appended (the last of each stream and type): for the gateway, which remembers them for the merchant's next reads; never passed on. */
  written?: WrittenPosition[];
}

export const reply = (body: unknown, status = 200): ServiceReply => ({ status, body });
export const replyJson = (json: string, status = 200): ServiceReply => ({ status, json });

/** Message patterns, one per operation, named <service>.<operation>. */
export const Patterns = {
  limits: { set: 'limits.set', get: 'limits.get' },
  recurrences: {
    create: 'recurrences.create',
    get: 'recurrences.get',
    list: 'recurrences.list',
    update: 'recurrences.update',
    sandboxAuthorize: 'recurrences.sandbox.authorize',
    sandboxReject: 'recurrences.sandbox.reject',
  },
  charges: {
    list: 'charges.list',
    listDue: 'charges.list-due',
    get: 'charges.get',
    cancel: 'charges.cancel',
    reschedule: 'charges.reschedule',
    retry: 'charges.retry',
    sandboxPay: 'charges.sandbox.pay',
    sandboxFail: 'charges.sandbox.fail',
    /** GET /v2/reports/daily-totals: the charges paid per day and the failed ones. */
    dailyTotals: 'charges.daily-totals',
  },
  payments: {
    getPixCharge: 'payments.pix.get',
    listPixCharges: 'payments.pix.list',
    createPixCharge: 'payments.pix.create',
    sandboxPayPixCharge: 'payments.pix.sandbox.pay',
    /** Due-date charges (cobv): POST /v2/cobv, GET /v2/cobv, GET /v2/cobv/charges, PATCH /v2/cobv/{id}, the sandbox payer. */
    createDueDateCharge: 'payments.cobv.create',
    getDueDateCharge: 'payments.cobv.get',
    listDueDateCharges: 'payments.cobv.list',
    changeDueDateCharge: 'payments.cobv.change',
    sandboxPayDueDateCharge: 'payments.cobv.sandbox.pay',
    createRefund: 'payments.refunds.create',
    listRefunds: 'payments.refunds.list',
    sandboxRefund: 'payments.refunds.sandbox.create',
    sandboxSettleRefund: 'payments.refunds.sandbox.settle',
    listDisputes: 'payments.disputes.list',
    getDispute: 'payments.disputes.get',
    getDisputeEvidence: 'payments.disputes.evidence',
    defendDispute: 'payments.disputes.defend',
    sandboxOpenDispute: 'payments.disputes.sandbox.open',
    /** POST /v2/payout/pix: to a Pix key or an account. */
    createPixPayout: 'payments.payouts.create-pix',
    /** POST /v2/payout: to an account. */
    createAccountPayout: 'payments.payouts.create-account',
    sandboxPayoutStatus: 'payments.payouts.sandbox.status',
    sandboxPayoutReturn: 'payments.payouts.sandbox.return',
    /** GET /v2/reports/daily-totals: Pix charges paid and refunds per day. */
    dailyTotals: 'payments.daily-totals',
  },
  /** The read side of payouts (payout-query-service); the CSV export streams over its HTTP listener instead. */
  payoutQuery: {
    byId: 'payout-query.by-id',
    period: 'payout-query.period',
    customer: 'payout-query.customer',
    /** GET /v2/reports/daily-totals: payouts per day and the rejected ones. */
    dailyTotals: 'payout-query.daily-totals',
  },
  /** Refund receipts, fetched live from the bank (receipt-service). */
  receipts: {
    refundReceipt: 'receipts.refund',
    payoutRefundReceipt: 'receipts.payout-refund',
    payoutReceipt: 'receipts.payout',
  },
  /** The merchant's delivery log (webhook-dispatcher); the admin API uses the same with the tenant it names. */
  webhooks: {
    listDeliveries: 'webhooks.deliveries.list',
    getDelivery: 'webhooks.deliveries.get',
    retryDelivery: 'webhooks.deliveries.retry',
    retryMatching: 'webhooks.deliveries.retry-matching',
    sendTestEvent: 'webhooks.test-events.send',
    createEndpoint: 'webhooks.endpoints.create',
    listEndpoints: 'webhooks.endpoints.list',
    getEndpoint: 'webhooks.endpoints.get',
    updateEndpoint: 'webhooks.endpoints.update',
    deleteEndpoint: 'webhooks.endpoints.delete',
    revealEndpointSecret: 'webhooks.endpoints.secret.reveal',
    rotateEndpointSecret: 'webhooks.endpoints.secret.rotate',
    sendEndpointTestEvent: 'webhooks.endpoints.test',
    /** GET /v2/reports/daily-totals: the failed deliveries of the period. */
    dailyTotals: 'webhooks.daily-totals',
  },
  solicitations: {
    create: 'solicitations.create',
    get: 'solicitations.get',
    cancel: 'solicitations.cancel',
    sandboxAnswer: 'solicitations.sandbox.answer',
  },
} as const;

/**
 * The topics each service's followers read from Kafka into what its reads answer: the services subscribe to exactly
 * these, and the gateway sends the merchant's recent writes on them with the reads below.
 */
export const FOLLOWED_TOPICS = {
  recurrenceService: [Topics.solicitations],
  paymentsService: [Topics.recurrences],
  payoutQueryService: [Topics.payouts],
  receiptService: [Topics.payments, Topics.payouts, Topics.accounts],
  webhookDispatcher: [Topics.recurrences, Topics.charges, Topics.payments, Topics.payouts, Topics.accounts],
  solicitationService: [Topics.recurrences],
} as const satisfies Record<string, readonly TopicSpec[]>;

const namesOf = (topics: readonly TopicSpec[]): readonly string[] => topics.map((topic) => topic.name);

/**
 * The reads a service answers (in part) from what its followers applied from Kafka, each with the topics that service
 * follows: the gateway sends the merchant's recent writes on those topics with these reads (ServiceRequest.written),
 * and with no other. A topic missing here is a write the read would not wait for (read-your-writes.e2e.spec.ts).
 */
export const FOLLOWER_FED_READS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  [Patterns.recurrences.get, namesOf(FOLLOWED_TOPICS.recurrenceService)],
  [Patterns.recurrences.list, namesOf(FOLLOWED_TOPICS.recurrenceService)],
  [Patterns.charges.list, namesOf(FOLLOWED_TOPICS.recurrenceService)],
  [Patterns.charges.listDue, namesOf(FOLLOWED_TOPICS.recurrenceService)],
  [Patterns.charges.get, namesOf(FOLLOWED_TOPICS.recurrenceService)],
  [Patterns.charges.dailyTotals, namesOf(FOLLOWED_TOPICS.recurrenceService)],
  [Patterns.payments.getPixCharge, namesOf(FOLLOWED_TOPICS.paymentsService)],
  [Patterns.payments.listPixCharges, namesOf(FOLLOWED_TOPICS.paymentsService)],
  [Patterns.payments.dailyTotals, namesOf(FOLLOWED_TOPICS.paymentsService)],
  [Patterns.payoutQuery.byId, namesOf(FOLLOWED_TOPICS.payoutQueryService)],
  [Patterns.payoutQuery.period, namesOf(FOLLOWED_TOPICS.payoutQueryService)],
  [Patterns.payoutQuery.customer, namesOf(FOLLOWED_TOPICS.payoutQueryService)],
  [Patterns.payoutQuery.dailyTotals, namesOf(FOLLOWED_TOPICS.payoutQueryService)],
  [Patterns.receipts.refundReceipt, namesOf(FOLLOWED_TOPICS.receiptService)],
  [Patterns.receipts.payoutRefundReceipt, namesOf(FOLLOWED_TOPICS.receiptService)],
  [Patterns.receipts.payoutReceipt, namesOf(FOLLOWED_TOPICS.receiptService)],
  [Patterns.webhooks.listDeliveries, namesOf(FOLLOWED_TOPICS.webhookDispatcher)],
  [Patterns.webhooks.getDelivery, namesOf(FOLLOWED_TOPICS.webhookDispatcher)],
  [Patterns.webhooks.dailyTotals, namesOf(FOLLOWED_TOPICS.webhookDispatcher)],
  [Patterns.solicitations.get, namesOf(FOLLOWED_TOPICS.solicitationService)],
]);

/**
 * The tenant on the one internal HTTP hop (the CSV export streams from payout-query-service through the gateway):
 * set by the gateway from the API key, trusted by the service, which listens on loopback only.
 */
export const TenantHeaders = { accountId: 'x-pixauto-account-id', environment: 'x-pixauto-environment' } as const;
