import { RecurrenceCreatedData } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { fold } from '@pixauto/event-store';
import { recurrence, RecurrenceCommand, RecurrenceEvent, RecurrenceState } from './recurrence';
import { givenRecurrence as given } from './testing/recurrence-fixture';

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
const withActivation = {
  ...created,
  activation: { charge_id: 'c1', amount_centavos: 4990, txid: 't1', expires_at: '2026-11-22T12:00:00Z', webhook: null, provider: 'PROVIDER_A' },
};

const createdEvent: RecurrenceEvent = { type: 'recurrence.created', data: created };
const stateAfter = (...events: RecurrenceEvent[]): RecurrenceState => fold(recurrence, events);
const update = (changes: object, cancel = false): RecurrenceCommand => ({ type: 'UpdateRecurrence', changes, cancel });

describe('recurrence', () => {
  it('is CREATED, awaiting definition, when created', () => {
    expect(stateAfter(createdEvent)).toMatchObject({ status: 'CREATED', journey: 'AWAITING_DEFINITION', activationExpired: false });
  });

  it('answers an unknown recurrence as not found', () => {
    given()
      .when(update({ webhook: null }))
      .thenRefuses(notFound('Recurrence not found'));
  });

  it('records only the fields that change, and nothing for a repeated PATCH', () => {
    given(createdEvent)
      .when(update({ webhook: created.webhook, charge_lead_days: 7 }))
      .then([{ type: 'recurrence.updated', data: { charge_lead_days: 7 } }]);
    given(createdEvent)
      .when(update({ webhook: created.webhook }))
      .then([]);
  });

  it('applies changes: debtor name, start date, cleared webhook', () => {
    const state = stateAfter(createdEvent, { type: 'recurrence.updated', data: { debtor_name: 'Maria S.', start_date: '2026-12-10', webhook: null } });
    expect(state).toMatchObject({ data: { debtor: { name: 'Maria S.' }, schedule: { start_date: '2026-12-10' }, webhook: null } });
  });

  it('keeps the new start date before the unchangeable end date', () => {
    given(createdEvent)
      .when(update({ start_date: '2027-12-01' }))
      .thenRefuses(validation('body.start_date must be before schedule.end_date'));
  });

  it('cancels from CREATED and APPROVED, with the changes sent alongside first', () => {
    given(createdEvent)
      .when(update({}, true))
      .then([{ type: 'recurrence.cancelled', data: {} }]);
    const approved: RecurrenceEvent = { type: 'recurrence.approved', data: { journey: 'JOURNEY_2' } };
    given(createdEvent, approved)
      .when(update({ webhook: null }, true))
      .then([
        { type: 'recurrence.updated', data: { webhook: null } },
        { type: 'recurrence.cancelled', data: {} },
      ]);
  });

  it('answers a second cancellation like the first, and refuses any other change once ended', () => {
    const cancelled: RecurrenceEvent = { type: 'recurrence.cancelled', data: {} };
    given(createdEvent, cancelled).when(update({}, true)).then([]);
    given(createdEvent, cancelled)
      .when(update({ charge_lead_days: 8 }))
      .thenRefuses(validation('the recurrence is CANCELLED and can no longer be changed'));
    given(createdEvent, { type: 'recurrence.rejected', data: {} })
      .when(update({}, true))
      .thenRefuses(validation('the recurrence is REJECTED and can no longer be changed'));
  });

  it('lets the payer approve or reject only a CREATED recurrence', () => {
    given(createdEvent)
      .when({ type: 'ApproveRecurrence', journey: 'JOURNEY_2', at: '2026-11-22T12:00:00.000Z', today: '2026-11-22' })
      .then([{ type: 'recurrence.approved', data: { journey: 'JOURNEY_2', approved_on: '2026-11-22' } }]);
    const approved: RecurrenceEvent = { type: 'recurrence.approved', data: { journey: 'JOURNEY_1' } };
    expect(stateAfter(createdEvent, approved)).toMatchObject({ status: 'APPROVED', journey: 'JOURNEY_1' });
    given(createdEvent, approved)
      .when({ type: 'RejectRecurrence' })
      .thenRefuses(validation('the recurrence is APPROVED: the payer can only answer a CREATED recurrence'));
  });

  it('expires only a CREATED recurrence; a late deadline changes nothing', () => {
    given(createdEvent)
      .when({ type: 'ExpireRecurrence' })
      .then([{ type: 'recurrence.expired', data: {} }]);
    given(createdEvent, { type: 'recurrence.approved', data: { journey: 'JOURNEY_1' } })
      .when({ type: 'ExpireRecurrence' })
      .then([]);
  });

  it('cannot be authorized once its activation expired unpaid (journey 3)', () => {
    const withActivationCreated: RecurrenceEvent = { type: 'recurrence.created', data: withActivation };
    given(withActivationCreated)
      .when({ type: 'ExpireActivation' })
      .then([{ type: 'recurrence.activation_expired', data: {} }]);
    given(withActivationCreated, { type: 'recurrence.activation_expired', data: {} }).when({ type: 'ExpireActivation' }).then([]);
    given(createdEvent).when({ type: 'ExpireActivation' }).then([]);
    const expired: RecurrenceEvent = { type: 'recurrence.activation_expired', data: {} };
    given(withActivationCreated, expired)
      .when({ type: 'ApproveRecurrence', journey: 'JOURNEY_3', at: '2026-11-22T12:00:00.000Z', today: '2026-11-22' })
      .thenRefuses(validation('the activation payment expired unpaid: this recurrence can no longer be authorized; cancel it and create a new one'));
  });
});
