import {
  ChargeEventTypes,
  ChargeResponse,
  DueDateChargeEventTypes,
  DueDateChargeResponse,
  PayoutEventTypes,
  PayoutResponse,
  PixChargeEventTypes,
  PixChargeResponse,
  RecurrenceEventTypes,
  RecurrenceResponse,
  RefundResponse,
  Tenant,
  WEBHOOK_EVENTS,
  DisputeResponse,
  WebhookEventType,
} from '@pixauto/contracts';
import { Notification } from './notifications';

// POST /v2/webhooks/test-events: a sample of any event type, in the shape the real event has, about a resource that
// does not exist (its ids say `test`), so a merchant can check their endpoint and its signature check before going live.

const RECURRENCE_ID = 'RRtest0000000000000000000000';
const CHARGE_ID = 'CHtest0000000000000000000000';
const PIX_CHARGE_ID = 900000001;
const PAYOUT_ID = 900000002;
const DUE_DATE_CHARGE_ID = 900000004;

const day = (at: Date, days: number): string => new Date(at.getTime() + days * 86_400_000).toISOString().slice(0, 10);

const RECURRENCE_STATUS: Partial<Record<WebhookEventType, RecurrenceResponse['status']>> = {
  [RecurrenceEventTypes.approved]: 'APPROVED',
  [RecurrenceEventTypes.rejected]: 'REJECTED',
  [RecurrenceEventTypes.expired]: 'EXPIRED',
  [RecurrenceEventTypes.cancelled]: 'CANCELLED',
  [RecurrenceEventTypes.activationExpired]: 'CREATED',
};

function recurrenceSample(type: WebhookEventType, at: Date, url: string): RecurrenceResponse {
  const status = RECURRENCE_STATUS[type] ?? 'CREATED';
  return {
    recurrence_id: RECURRENCE_ID,
    status,
    contract: 'test-plano-mensal-0001',
    debtor: { document_number: '11144477735', name: 'Maria da Silva' },
    schedule: { start_date: day(at, 5), end_date: null, periodicity: 'MONTHLY' },
    amount: 49.9,
    retry_policy: 'ALLOWS_3R_7D',
    business_day_adjust: true,
    charge_lead_days: 2,
    journey: status === 'APPROVED' ? 'JOURNEY_2' : type === RecurrenceEventTypes.activationExpired ? 'JOURNEY_3' : 'AWAITING_DEFINITION',
    pix_copy_paste: status === 'CREATED' && type !== RecurrenceEventTypes.activationExpired ? '00020101021226930014br.gov.bcb.pix2571test' : null,
    webhook: url,
  };
}

const CHARGE_STATUS: Partial<Record<WebhookEventType, ChargeResponse['status']>> = {
  [ChargeEventTypes.paid]: 'PAID',
  [ChargeEventTypes.failed]: 'FAILED',
  [ChargeEventTypes.cancelled]: 'CANCELLED',
  [ChargeEventTypes.expired]: 'EXPIRED',
};

function chargeSample(type: WebhookEventType, at: Date): ChargeResponse {
  const status = CHARGE_STATUS[type] ?? 'SCHEDULED';
  return {
    charge_id: CHARGE_ID,
    recurrence_id: RECURRENCE_ID,
    type: type === ChargeEventTypes.expired ? 'activation' : 'cycle',
    amount: 49.9,
    due_date: day(at, type === ChargeEventTypes.rescheduled || type === ChargeEventTypes.retryScheduled ? 4 : 2),
    status,
    retries: type === ChargeEventTypes.retryScheduled ? 1 : 0,
    created_at: at.toISOString(),
    paid_at: status === 'PAID' ? at.toISOString() : null,
  };
}

function pixChargeSample(type: WebhookEventType, at: Date, url: string): PixChargeResponse {
  const status = type === PixChargeEventTypes.paid ? 'PAID' : type === PixChargeEventTypes.expired ? 'EXPIRED' : 'PENDING';
  return {
    id: PIX_CHARGE_ID,
    transaction_id: 'test-pedido-0001',
    amount: 120.5,
    status,
    provider: 'PROVIDER_A',
    payer: { document_number: '11144477735', name: 'Maria da Silva' },
    description: 'Test event',
    webhook: url,
    pix_copy_paste: status === 'PENDING' ? '00020101021226930014br.gov.bcb.pix2571test' : null,
    expires_at: new Date(at.getTime() + 3_600_000).toISOString(),
    created_at: at.toISOString(),
    paid_at: status === 'PAID' ? at.toISOString() : null,
    dispute: null,
  };
}

function disputeSample(type: WebhookEventType, at: Date): DisputeResponse {
  const status =
    type === PixChargeEventTypes.disputeReturned
      ? 'RETURNED'
      : type === PixChargeEventTypes.disputeRejected
        ? 'REJECTED'
        : type === PixChargeEventTypes.disputeDefended
          ? 'DEFENDED'
          : 'OPEN';
  return {
    id: 1,
    status,
    reason: 'FRAUD',
    transaction: { id: PIX_CHARGE_ID, transaction_id: 'test-pedido-0001', amount: 120.5 },
    amount: 120.5,
    blocked_amount: 120.5,
    defence_deadline: new Date(at.getTime() + 7 * 86_400_000).toISOString(),
    defence: status === 'OPEN' ? null : { text: 'The goods were delivered.', evidence: [], submitted_at: at.toISOString() },
    return: status === 'RETURNED' ? { amount: 120.5, e2e_id: 'D60701190202601011200TEST000003', natureza: 'MED_FRAUDE', returned_at: at.toISOString() } : null,
    opened_at: at.toISOString(),
    closed_at: status === 'RETURNED' || status === 'REJECTED' ? at.toISOString() : null,
  };
}

function dueDateChargeSample(type: WebhookEventType, at: Date, url: string): DueDateChargeResponse {
  const status = type === DueDateChargeEventTypes.paid ? 'PAID' : type === DueDateChargeEventTypes.expired ? 'EXPIRED' : 'CANCELLED';
  return {
    id: DUE_DATE_CHARGE_ID,
    transaction_id: 'test-boleto-0001',
    status,
    provider: 'PROVIDER_A',
    amount: 150,
    due_date: day(at, -1),
    days_valid_after_due: 0,
    last_payable_day: day(at, -1),
    payer: { document_number: '11144477735', name: 'Maria da Silva', email: null, street: null, city: null, state: null, postal_code: null },
    fine: { modality: 'PERCENTAGE', value: 2 },
    interest: null,
    discount: null,
    abatement: null,
    description: 'Test event',
    webhook: url,
    pix_copy_paste: null,
    amount_due: null,
    amount_paid: status === 'PAID' ? { date: day(at, 0), original: 150, abatement: 0, discount: 0, fine: 3, interest: 0, final: 153 } : null,
    revision: 0,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    paid_at: status === 'PAID' ? at.toISOString() : null,
  };
}

function refundSample(type: WebhookEventType, at: Date): RefundResponse {
  const status = type === PixChargeEventTypes.refunded ? 'REFUNDED' : type === PixChargeEventTypes.refundFailed ? 'FAILED' : 'PROCESSING';
  return {
    id: 900000003,
    refund_id: status === 'PROCESSING' ? null : 'DEVOLUCAOTEST0001',
    amount: 120.5,
    status,
    transaction: { id: PIX_CHARGE_ID, transaction_id: 'test-pedido-0001' },
    created_at: at.toISOString(),
    refunded_at: status === 'REFUNDED' ? at.toISOString() : null,
  };
}

function payoutSample(type: WebhookEventType, at: Date, url: string): PayoutResponse {
  const completed = type !== PayoutEventTypes.created;
  return {
    id: PAYOUT_ID,
    transaction_id: 'test-saque-0001',
    name: 'Maria da Silva',
    document_number: '11144477735',
    document_type: 'CPF',
    currency: 'BRL',
    amount: 250,
    status: completed ? 1 : 0,
    bank: { type: 'PIX', bank_name: null, ispb: '60701190', account_agency: null, account_number: null },
    webhook: url,
    created_at: at.toISOString(),
    ...(completed && { paid_at: at.toISOString(), e2e: 'E60701190202601011200TEST000001' }),
    ...(type === PayoutEventTypes.returned && { refund_id: 'DEVOLUCAOTEST0002' }),
  };
}

/** The body's `data` for a test event of `type`: the resource as its GET would show it right after such an event. */
export function sampleData(type: WebhookEventType, at: Date, url: string): { resource_id: string; data: unknown } {
  switch (WEBHOOK_EVENTS[type].data) {
    case 'RecurrenceResponse':
      return { resource_id: RECURRENCE_ID, data: recurrenceSample(type, at, url) };
    case 'ChargeResponse':
      return { resource_id: CHARGE_ID, data: chargeSample(type, at) };
    case 'PixChargeResponse':
      return { resource_id: String(PIX_CHARGE_ID), data: pixChargeSample(type, at, url) };
    case 'RefundResponse':
      return { resource_id: String(PIX_CHARGE_ID), data: refundSample(type, at) };
    case 'DisputeResponse':
      return { resource_id: String(PIX_CHARGE_ID), data: disputeSample(type, at) };
    case 'DueDateChargeResponse':
      return { resource_id: String(DUE_DATE_CHARGE_ID), data: dueDateChargeSample(type, at, url) };
    case 'PayoutResponse':
      return { resource_id: String(PAYOUT_ID), data: payoutSample(type, at, url) };
  }
}

/** A test event as a delivery: its own group (it neither waits for nor holds back a real resource's events). */
export function testNotification(id: string, tenant: Tenant, type: WebhookEventType, url: string, at: Date): Notification {
  const { resource_id, data } = sampleData(type, at, url);
  return {
    id,
    tenant,
    event_type: type,
    resource_type: WEBHOOK_EVENTS[type].resource,
    resource_id,
    group_id: `test:${id}`,
    sequence: 1,
    url,
    payload: { type, environment: tenant.environment, timestamp: at.toISOString(), data },
  };
}
