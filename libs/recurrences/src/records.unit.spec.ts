import { EventEnvelope } from '@pixauto/contracts';
import { fold } from '@pixauto/event-store';
import { planDueCharges } from './cycle-plan';
import { Recurrence, recurrence, RecurrenceEvent } from './recurrence';
import { chargeCreationTimes, recordOfEnvelope, recurrenceStatusAfter, upcastRecurrenceStreamEvent, withRecords } from './records';
import { monthlyRecurrence, runCommands } from './testing/recurrence-fixture';

// The record each event of a recurrence's stream carries: the recurrence, or the charge, once the event applied,
// as GET shows it; and the one reader of the events recorded before (version 1).

const CREATED_AT = new Date('2027-01-10T15:00:00.000Z');
const ISSUED_AT = new Date('2027-01-26T03:00:00.000Z');

const { events: approval, state: approved } = runCommands(
  { type: 'CreateRecurrence', data: monthlyRecurrence, today: '2027-01-10' },
  { type: 'ApproveRecurrence', journey: 'JOURNEY_2', at: CREATED_AT.toISOString(), today: '2027-01-10' },
);

const dataOf = (event: RecurrenceEvent) => event.data as unknown as Record<string, unknown>;

describe('withRecords', () => {
  it('gives each recurrence event the recurrence after it, as GET shows it without the QR image', () => {
    const [created, approvedEvent] = withRecords(recurrence.initialState, approval, new Map(), CREATED_AT);
    expect(dataOf(created).recurrence).toMatchObject({ recurrence_id: 'r1', status: 'CREATED', journey: 'AWAITING_DEFINITION', amount: 49.9 });
    expect(dataOf(approvedEvent)).toMatchObject({
      journey: 'JOURNEY_2',
      recurrence: { status: 'APPROVED', journey: 'JOURNEY_2', pix_copy_paste: '000201...' },
    });
    expect(dataOf(approvedEvent).recurrence).not.toHaveProperty('qrcode');
  });

  it('gives each charge event the charge after it, created when its creation was recorded, and leaves the change as decided', () => {
    const [first] = planDueCharges(approved, 'production', '2027-01-26').charges;
    const [issued] = withRecords(approved, first.events, new Map(), ISSUED_AT);
    expect(dataOf(issued)).toMatchObject(first.events[0].data);
    expect(dataOf(issued).charge).toEqual({
      charge_id: first.command.charge_id,
      recurrence_id: 'r1',
      type: 'cycle',
      amount: 49.9,
      due_date: '2027-01-31',
      status: 'SCHEDULED',
      retries: 0,
      created_at: ISSUED_AT.toISOString(),
      paid_at: null,
    });
    const decision = recurrence.decide(
      { type: 'RecordChargePaid', charge_id: first.command.charge_id, paid_at: '2027-01-31T12:00:00.000Z', end_to_end_id: 'E1' },
      first.state,
    );
    if (!decision.ok) throw new Error('refused');
    const later = new Date('2027-01-31T12:00:05.000Z');
    const created = chargeCreationTimes([{ ...issued, occurredAt: ISSUED_AT }]);
    const [paidEvent] = withRecords(first.state, decision.events, created, later);
    expect(dataOf(paidEvent).charge).toMatchObject({ status: 'PAID', created_at: ISSUED_AT.toISOString(), paid_at: '2027-01-31T12:00:00.000Z' });
  });

  it('changes nothing evolve folds: the events with their records lead to the same state', () => {
    const recorded = withRecords(recurrence.initialState, approval, new Map(), CREATED_AT);
    expect(fold(recurrence, recorded)).toEqual(fold(recurrence, approval));
    expect((fold(recurrence, recorded) as Recurrence).status).toBe('APPROVED');
  });
});

describe('upcastRecurrenceStreamEvent', () => {
  const envelope = (type: string, data: unknown, version = 1): EventEnvelope => ({
    event_id: `e${version}`,
    type,
    stream_id: 'recurrence:acc-1:production:r1',
    version,
    tenant: { account_id: 'acc-1', environment: 'production' },
    occurred_at: CREATED_AT.toISOString(),
    data,
  });

  it('builds the record of a version 1 creation as the writer builds it, and leaves a version 2 event as it is', () => {
    const [v2] = withRecords(recurrence.initialState, approval.slice(0, 1), new Map(), CREATED_AT);
    expect(upcastRecurrenceStreamEvent(envelope('recurrence.created', monthlyRecurrence))).toEqual(envelope('recurrence.created', v2.data));
    const withRecord = envelope('recurrence.approved', dataOf(withRecords(recurrence.initialState, approval, new Map(), CREATED_AT)[1]), 2);
    expect(upcastRecurrenceStreamEvent(withRecord)).toBe(withRecord);
  });

  it('builds the record of a version 1 charge creation, created when it was recorded', () => {
    const [first] = planDueCharges(approved, 'production', '2027-01-26').charges;
    const [v2] = withRecords(approved, first.events, new Map(), CREATED_AT);
    const upcast = upcastRecurrenceStreamEvent(envelope('charge.created', first.events[0].data, 3));
    expect(upcast && recordOfEnvelope(upcast)).toEqual(dataOf(v2).charge);
  });

  it('has no record to give for any other version 1 event: it carried only its change', () => {
    expect(upcastRecurrenceStreamEvent(envelope('recurrence.approved', { journey: 'JOURNEY_2' }, 2))).toBeUndefined();
    expect(upcastRecurrenceStreamEvent(envelope('charge.paid', { charge_id: 'c1' }, 4))).toBeUndefined();
  });
});

describe('recurrenceStatusAfter', () => {
  const envelope = (type: string, data: unknown): EventEnvelope => ({
    event_id: 'e',
    type,
    stream_id: 'recurrence:acc-1:production:r1',
    version: 2,
    tenant: { account_id: 'acc-1', environment: 'production' },
    occurred_at: CREATED_AT.toISOString(),
    data,
  });

  it("is the record's status, for every recurrence event that carries one", () => {
    const recorded = withRecords(recurrence.initialState, [...approval, { type: 'recurrence.updated', data: { debtor_name: 'Ana' } }], new Map(), CREATED_AT);
    expect(recorded.map((event) => recurrenceStatusAfter(envelope(event.type, event.data)))).toEqual(['CREATED', 'APPROVED', 'APPROVED']);
  });

  it('is what the type of a version 1 event said, and nothing for those that said nothing of it, or for a charge', () => {
    expect(recurrenceStatusAfter(envelope('recurrence.cancelled', {}))).toBe('CANCELLED');
    expect(recurrenceStatusAfter(envelope('recurrence.updated', { debtor_name: 'Ana' }))).toBeUndefined();
    expect(recurrenceStatusAfter(envelope('charge.paid', { charge_id: 'c1' }))).toBeUndefined();
  });
});
