import { RecurrenceCreatedData } from '@pixauto/contracts';
import { fold } from '@pixauto/event-store';
import { recurrence, RecurrenceCommand, RecurrenceEvent, RecurrenceState } from './recurrence';

const created: RecurrenceCreatedData = {
  recurrence_id: 'r1',
  transaction_id: 'assinatura-123',
  object: 'Plano mensal',
  debtor: { document_number: '52998224725', name: 'Maria Silva', email: 'maria@example.com', address: null },
  schedule: { start_date: '2026-12-01', end_date: '2027-12-01', periodicity: 'MONTHLY' },
  amount_centavos: 4990,
  retry_policy: 'ALLOWS_3R_7D',
  business_day_adjust: false,
  charge_lead_days: 5,
  webhook: 'https://shop.example.com/hooks',
  bank: { id_rec: 'RR123', location_id: 7, location_url: 'pix.example.com/rec/7' },
  pix_copy_paste: '000201...',
  activation: null,
};
const withActivation = { ...created, activation: { charge_id: 'c1', amount_centavos: 4990, txid: 't1', expires_at: '2026-11-22T12:00:00Z', webhook: null, provider: 'PROVIDER_A' } };

const createdEvent: RecurrenceEvent = { type: 'recurrence.created', data: created };
const stateAfter = (...events: RecurrenceEvent[]): RecurrenceState => fold(recurrence, events);
const decide = (command: RecurrenceCommand, ...history: RecurrenceEvent[]) => recurrence.decide(command, stateAfter(...history));
const refusal = (message: string) => ({ ok: false, refusal: { kind: 'validation', problems: [message] } });
const update = (changes: object, cancel = false): RecurrenceCommand => ({ type: 'UpdateRecurrence', changes, cancel });

describe('recurrence', () => {
  it('is CREATED, awaiting definition, when created', () => {
    expect(stateAfter(createdEvent)).toMatchObject({ status: 'CREATED', journey: 'AWAITING_DEFINITION', activationExpired: false });
  });

  it('answers an unknown recurrence as not found', () => {
    expect(decide(update({ webhook: null }))).toEqual({ ok: false, refusal: { kind: 'not_found', message: 'Recurrence not found' } });
  });

  it('records only the fields that change, and nothing for a repeated PATCH', () => {
    expect(decide(update({ webhook: created.webhook, charge_lead_days: 7 }), createdEvent)).toEqual({
      ok: true,
      events: [{ type: 'recurrence.updated', data: { charge_lead_days: 7 } }],
    });
    expect(decide(update({ webhook: created.webhook }), createdEvent)).toEqual({ ok: true, events: [] });
  });

  it('applies changes: debtor name, start date, cleared webhook', () => {
    const state = stateAfter(createdEvent, { type: 'recurrence.updated', data: { debtor_name: 'Maria S.', start_date: '2026-12-10', webhook: null } });
    expect(state).toMatchObject({ data: { debtor: { name: 'Maria S.' }, schedule: { start_date: '2026-12-10' }, webhook: null } });
  });

  it('keeps the new start date before the unchangeable end date', () => {
    expect(decide(update({ start_date: '2027-12-01' }), createdEvent)).toEqual(refusal('body.start_date must be before schedule.end_date'));
  });

  it('cancels from CREATED and APPROVED, with the changes sent alongside first', () => {
    expect(decide(update({}, true), createdEvent)).toEqual({ ok: true, events: [{ type: 'recurrence.cancelled', data: {} }] });
    const approved: RecurrenceEvent = { type: 'recurrence.approved', data: { journey: 'JOURNEY_2' } };
    expect(decide(update({ webhook: null }, true), createdEvent, approved)).toEqual({
      ok: true,
      events: [
        { type: 'recurrence.updated', data: { webhook: null } },
        { type: 'recurrence.cancelled', data: {} },
      ],
    });
  });

  it('answers a second cancellation like the first, and refuses any other change once ended', () => {
    const cancelled: RecurrenceEvent = { type: 'recurrence.cancelled', data: {} };
    expect(decide(update({}, true), createdEvent, cancelled)).toEqual({ ok: true, events: [] });
    expect(decide(update({ charge_lead_days: 8 }), createdEvent, cancelled)).toEqual(refusal('the recurrence is CANCELLED and can no longer be changed'));
    expect(decide(update({}, true), createdEvent, { type: 'recurrence.rejected', data: {} })).toEqual(
      refusal('the recurrence is REJECTED and can no longer be changed'),
    );
  });

  it('lets the payer approve or reject only a CREATED recurrence', () => {
    expect(decide({ type: 'ApproveRecurrence', journey: 'JOURNEY_2', at: '2026-11-22T12:00:00.000Z', today: '2026-11-22' }, createdEvent)).toEqual({
      ok: true,
      events: [{ type: 'recurrence.approved', data: { journey: 'JOURNEY_2', approved_on: '2026-11-22' } }],
    });
    const approved: RecurrenceEvent = { type: 'recurrence.approved', data: { journey: 'JOURNEY_1' } };
    expect(stateAfter(createdEvent, approved)).toMatchObject({ status: 'APPROVED', journey: 'JOURNEY_1' });
    expect(decide({ type: 'RejectRecurrence' }, createdEvent, approved)).toEqual(
      refusal('the recurrence is APPROVED: the payer can only answer a CREATED recurrence'),
    );
  });

  it('expires only a CREATED recurrence; a late deadline changes nothing', () => {
    expect(decide({ type: 'ExpireRecurrence' }, createdEvent)).toEqual({ ok: true, events: [{ type: 'recurrence.expired', data: {} }] });
    expect(decide({ type: 'ExpireRecurrence' }, createdEvent, { type: 'recurrence.approved', data: { journey: 'JOURNEY_1' } })).toEqual({
      ok: true,
      events: [],
    });
  });

  it('cannot be authorized once its activation expired unpaid (journey 3)', () => {
    const withActivationCreated: RecurrenceEvent = { type: 'recurrence.created', data: withActivation };
    expect(decide({ type: 'ExpireActivation' }, withActivationCreated)).toEqual({ ok: true, events: [{ type: 'recurrence.activation_expired', data: {} }] });
    expect(decide({ type: 'ExpireActivation' }, withActivationCreated, { type: 'recurrence.activation_expired', data: {} })).toEqual({ ok: true, events: [] });
    expect(decide({ type: 'ExpireActivation' }, createdEvent)).toEqual({ ok: true, events: [] });
    const expired: RecurrenceEvent = { type: 'recurrence.activation_expired', data: {} };
    expect(decide({ type: 'ApproveRecurrence', journey: 'JOURNEY_3', at: '2026-11-22T12:00:00.000Z', today: '2026-11-22' }, withActivationCreated, expired)).toEqual(
      refusal('the activation payment expired unpaid: this recurrence can no longer be authorized; cancel it and create a new one'),
    );
  });
});
