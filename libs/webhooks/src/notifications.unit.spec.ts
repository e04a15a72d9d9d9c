import { EventEnvelope, PayoutRecordData, WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from '@pixauto/contracts';
import { recurrence, RecurrenceEvent, RecurrenceState, withRecords } from '@pixauto/recurrences';
import { monthlyRecurrence } from '@pixauto/recurrences/testing';
import { notificationOf, RECORD_EVENT_TYPES, recordWebhookEvent, RECURRENCE_STREAM_EVENT_TYPES, recurrenceStreamStep } from './notifications';

const STREAM = 'recurrence:acc1:sandbox:r1';
let version = 0;
const envelope = (type: string, data: unknown, stream = STREAM): EventEnvelope => ({
  event_id: `0000000${++version}-aaaa-bbbb-cccc-dddddddddddd`,
  type,
  stream_id: stream,
  version,
  tenant: { account_id: 'acc1', environment: 'sandbox' },
  occurred_at: `2027-01-0${version}T12:00:00.000Z`,
  data,
});

/** The events of one stream as the writer records them (one append each, a day apart), each with its record. */
function recorded(...events: [string, unknown][]): EventEnvelope[] {
  let state: RecurrenceState = recurrence.initialState;
  const created = new Map<string, Date>();
  return events.map(([type, data]) => {
    const event = envelope(type, data);
    const at = new Date(event.occurred_at);
    const [withRecord] = withRecords(state, [{ type, data } as RecurrenceEvent], created, at);
    state = recurrence.evolve(state, { type, data } as RecurrenceEvent);
    if (type === 'charge.created') created.set((data as { charge_id: string }).charge_id, at);
    return { ...event, data: withRecord.data };
  });
}

const steps = (...events: [string, unknown][]) => recorded(...events).map((event) => recurrenceStreamStep(event));
const play = (...events: [string, unknown][]) => steps(...events).map((step) => notificationOf(step?.event));

beforeEach(() => (version = 0));

describe('recurrence stream events', () => {
  it('notify the recurrence webhook with the recurrence as listed, under an id derived from the event', () => {
    const [created, approved] = play(['recurrence.created', monthlyRecurrence], ['recurrence.approved', { journey: 'JOURNEY_2', approved_on: '2027-01-02' }]);
    expect(created).toMatchObject({
      id: 'msg_00000001aaaabbbbccccdddddddddddd',
      tenant: { accountId: 'acc1', environment: 'sandbox' },
      event_type: 'recurrence.created',
      resource_type: 'recurrence',
      resource_id: 'r1',
      group_id: 'recurrence:r1',
      sequence: 1,
      url: 'https://shop.example.com/hooks',
      payload: {
        type: 'recurrence.created',
        // The environment the event happened in, inside the signed body.
        environment: 'sandbox',
        timestamp: '2027-01-01T12:00:00.000Z',
        data: expect.objectContaining({ status: 'CREATED', amount: 49.9, contract: 'assinatura-123' }),
      },
    });
    expect(created?.payload.data).not.toHaveProperty('qrcode');
    expect(approved?.payload.data).toMatchObject({ status: 'APPROVED', journey: 'JOURNEY_2', pix_copy_paste: '000201...' });
  });

  it('show the charge as GET does, created_at from its creation event; the activation is a group of its own', () => {
    const charge = {
      charge_id: 'c1',
      recurrence_id: 'r1',
      type: 'cycle',
      webhook: 'https://shop.example.com/hooks',
      cycle: 1,
      nominal_date: '2027-01-31',
      due_date: '2027-02-01',
      amount_centavos: 4990,
      txid: 't1',
      debtor: { document_number: '52998224725', name: 'Maria Silva', email: null },
    };
    const [, , created, paid] = play(
      ['recurrence.created', monthlyRecurrence],
      ['recurrence.approved', { journey: 'JOURNEY_2' }],
      ['charge.created', charge],
      [
        'charge.paid',
        {
          charge_id: 'c1',
          recurrence_id: 'r1',
          type: 'cycle',
          webhook: 'https://new.example.com/h',
          amount_centavos: 4990,
          paid_at: '2027-02-01T09:00:00.000Z',
          end_to_end_id: null,
        },
      ],
    );
    expect(created).toMatchObject({ resource_type: 'charge', resource_id: 'c1', group_id: 'recurrence:r1' });
    expect(paid).toMatchObject({ url: 'https://new.example.com/h', payload: { type: 'charge.paid' } });
    expect(paid?.payload.data).toEqual({
      charge_id: 'c1',
      recurrence_id: 'r1',
      type: 'cycle',
      amount: 49.9,
      due_date: '2027-02-01',
      status: 'PAID',
      retries: 0,
      created_at: '2027-01-03T12:00:00.000Z',
      paid_at: '2027-02-01T09:00:00.000Z',
    });
    const [, activation] = play(['recurrence.created', monthlyRecurrence], ['charge.created', { ...charge, charge_id: 'a1', type: 'activation', cycle: null }]);
    expect(activation?.group_id).toBe('recurrence:r1:activation');
  });

  it('make nothing once the webhook is cleared, and the clearing names the group whose pending deliveries end', () => {
    const [, cleared, cancelled] = steps(['recurrence.created', monthlyRecurrence], ['recurrence.updated', { webhook: null }], ['recurrence.cancelled', {}]);
    expect(notificationOf(cleared?.event)).toBeUndefined();
    expect(notificationOf(cancelled?.event)).toBeUndefined();
    expect(cleared?.webhookChange).toEqual({ group_id: 'recurrence:r1', url: null, version: 2 });
    const [, renamed, replaced] = steps(
      ['recurrence.created', monthlyRecurrence],
      ['recurrence.updated', { debtor_name: 'Ana' }],
      ['recurrence.updated', { webhook: 'https://new.example.com/h' }],
    );
    expect(renamed?.webhookChange).toBeUndefined();
    expect(replaced).toMatchObject({
      webhookChange: { group_id: 'recurrence:r1', url: 'https://new.example.com/h', version: 6 },
      event: { url: 'https://new.example.com/h' },
    });
  });

  it('make no delivery for a recurrence created without a webhook, but still an event (for the sandbox listeners)', () => {
    expect(play(['recurrence.created', { ...monthlyRecurrence, webhook: null }])).toEqual([undefined]);
    version = 0;
    const [step] = steps(['recurrence.created', { ...monthlyRecurrence, webhook: null }]);
    expect(step?.event).toMatchObject({ url: null, event_type: 'recurrence.created', payload: { type: 'recurrence.created', data: { recurrence_id: 'r1' } } });
  });
});

describe('recurrence stream events of version 1 (only the change; still on the topics until they age out)', () => {
  it('a creation carries all its record needs: the upcaster builds it as the writer does', () => {
    const [created] = recorded(['recurrence.created', monthlyRecurrence]);
    version = 0;
    const [fromV1] = [envelope('recurrence.created', monthlyRecurrence)].map((event) => recurrenceStreamStep(event)?.event);
    expect(fromV1).toEqual(recurrenceStreamStep(created)?.event);
    expect(fromV1?.payload.data).toMatchObject({ status: 'CREATED', recurrence_id: 'r1' });
  });

  it('any other carries no record and makes no delivery', () => {
    expect(recurrenceStreamStep(envelope('recurrence.approved', { journey: 'JOURNEY_2' }))).toBeUndefined();
  });
});

describe('records (cash-in, payouts)', () => {
  const payout: PayoutRecordData = {
    id: 42,
    transaction_id: 'saque-1',
    name: 'Maria',
    document_number: '52998224725',
    document_type: 'CPF',
    amount_centavos: 1000,
    status: 1,
    pix_key: 'maria@example.com',
    bank: { type: 'PIX', bank_name: 'Banco X', bank_code: '001', ispb: '00000000', account_agency: null, account_number: null },
    webhook: 'https://shop.example.com/payouts',
    provider: 'PROVIDER_A',
    created_at: '2027-01-01T12:00:00.000Z',
    paid_at: '2027-01-01T12:00:05.000Z',
    e2e: 'E123',
    psp_id: 'p1',
  };

  it('a payout event notifies its webhook with the record as GET /v2/withdrawals shows it; without a webhook, it is an event with no delivery', () => {
    const notification = notificationOf(
      recordWebhookEvent(envelope('payout.status_changed', { payout, from: 4, to: 1, reason: null }, 'payout:acc1:sandbox:42')),
    );
    expect(notification).toMatchObject({ resource_type: 'payout', resource_id: '42', group_id: 'payout:42', url: 'https://shop.example.com/payouts' });
    expect(notification?.payload.data).toMatchObject({ id: 42, amount: 10, status: 1, currency: 'BRL', paid_at: '2027-01-01T12:00:05.000Z', e2e: 'E123' });
    const withoutWebhook = recordWebhookEvent(envelope('payout.created', { payout: { ...payout, webhook: null } }));
    expect(notificationOf(withoutWebhook)).toBeUndefined();
    expect(withoutWebhook).toMatchObject({ url: null, resource_id: '42', payload: { type: 'payout.created', data: { id: 42 } } });
  });

  it('a due-date charge notifies its webhook when paid, expired or cancelled, never of its creation or changes', () => {
    const charge = {
      id: 7,
      transaction_id: 'boleto-7',
      status: 'PAID',
      provider: 'PROVIDER_A',
      amount_centavos: 10000,
      due_date: '2027-01-01',
      days_valid_after_due: 0,
      fine: { modality: 'FIXED_AMOUNT', value: 200 },
      interest: null,
      discount: null,
      abatement: null,
      payer: { document_number: '52998224725', name: 'Maria', email: null, street: null, city: null, state: null, postal_code: null },
      description: null,
      webhook: 'https://shop.example.com/cobv',
      pix_copy_paste: null,
      revision: 0,
      created_at: '2026-12-20T12:00:00.000Z',
      updated_at: '2027-01-01T12:00:00.000Z',
      paid_at: '2027-01-01T12:00:00.000Z',
      paid: { day: '2027-01-01', original: 10000, abatement: 0, discount: 0, fine: 0, interest: 0, final: 10000 },
      bank: { txid: 'PIXAUTOVS00000000000000000007', location: 'l' },
      e2e_id: 'E1',
    };
    const stream = 'due_date_charge:acc1:sandbox:boleto-7';
    const notification = notificationOf(recordWebhookEvent(envelope('due_date_charge.paid', { charge }, stream)));
    expect(notification).toMatchObject({
      resource_type: 'due_date_charge',
      resource_id: '7',
      group_id: 'due_date_charge:7',
      url: 'https://shop.example.com/cobv',
    });
    expect(notification?.payload.data).toMatchObject({ id: 7, status: 'PAID', amount: 100, amount_paid: { final: 100 }, amount_due: null });
    for (const type of ['due_date_charge.created', 'due_date_charge.changed']) expect(recordWebhookEvent(envelope(type, { charge }, stream))).toBeUndefined();
  });

  it('other events make nothing', () => {
    expect(recordWebhookEvent(envelope('limit.set', {}))).toBeUndefined();
  });
});

describe("the webhook event catalogue (the documents' `webhooks` section and the delivery log's filter)", () => {
  it('lists exactly the events the dispatcher turns into deliveries', () => {
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual([...RECURRENCE_STREAM_EVENT_TYPES, ...RECORD_EVENT_TYPES].sort());
  });

  it('names for each the resource its deliveries carry, and the refund for a refund event', () => {
    const resourceOf = (type: string) =>
      ({ recurrence: 'recurrence', charge: 'charge', pix_charge: 'pix_charge', due_date_charge: 'due_date_charge', payout: 'payout' })[type.split('.')[0]];
    for (const [type, doc] of Object.entries(WEBHOOK_EVENTS)) {
      expect({ type, resource: doc.resource }).toEqual({ type, resource: resourceOf(type) });
      expect({ type, refund: doc.data === 'RefundResponse' }).toEqual({ type, refund: type.startsWith('pix_charge.refund') });
    }
  });
});
