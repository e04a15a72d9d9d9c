import { RecurrenceCreatedData } from '@pixauto/contracts';
import { nextCycle } from './charge';
import { nextChargeAt } from './read-model/recurrences.projection';
import { Recurrence, recurrence, RecurrenceCommand } from './recurrence';
import { monthlyRecurrence as created, runCommands as run } from './testing/recurrence-fixture';

const activation = { charge_id: 'act-1', amount_centavos: 1000, txid: 't1', expires_at: '2027-01-10T13:00:00Z', webhook: 'https://shop.example.com/at-creation', provider: 'PROVIDER_A' };

const decideAfter = (command: RecurrenceCommand, ...before: RecurrenceCommand[]) => recurrence.decide(command, run(...before).state);

const create = (data: RecurrenceCreatedData = created): RecurrenceCommand => ({ type: 'CreateRecurrence', data, today: '2027-01-10' });
const approve = (today = '2027-01-10', journey: 'JOURNEY_2' | 'JOURNEY_3' = 'JOURNEY_2'): RecurrenceCommand => ({
  type: 'ApproveRecurrence',
  journey,
  at: `${today}T15:00:00.000Z`,
  today,
});
const next = (state: Recurrence, notBefore = state.approvedOn ?? '0000-01-01') => {
  const last = state.charges.filter((c) => c.cycle !== null).at(-1);
  return nextCycle(state.data, last ? { cycle: last.cycle ?? 0, nominal_date: last.nominal_date ?? '' } : null, notBefore);
};
const issueNext = (state: Recurrence, chargeId: string): RecurrenceCommand => {
  const cycle = next(state);
  if (!cycle) throw new Error('no next cycle');
  return { type: 'IssueCharge', next: cycle, charge_id: chargeId, txid: `tx-${chargeId}` };
};
const refusal = (message: string) => ({ ok: false, refusal: { kind: 'validation', problems: [message] } });

describe('the next cycle to charge', () => {
  it('starts at start_date, created charge_lead_days before it', () => {
    const { state } = run(create(), approve());
    expect(next(state)).toEqual({ cycle: 1, nominal_date: '2027-01-31', due_date: '2027-01-31', creation_date: '2027-01-26' });
  });

  it('follows the month ends from the start day, up to end_date', () => {
    let { state } = run(create(), approve());
    const dues: string[] = [];
    for (let i = 1; next(state) !== null; i++) {
      dues.push(next(state)?.due_date ?? '');
      const decision = recurrence.decide(issueNext(state, `c${i}`), state);
      if (!decision.ok) throw new Error('refused');
      state = decision.events.reduce(recurrence.evolve, state as never) as Recurrence;
    }
    expect(dues).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30']);
  });

  it('moves a due date off a weekend or bank holiday when business_day_adjust is on (Carnival 2027: Feb 8 and 9)', () => {
    const { state } = run(create({ ...created, schedule: { start_date: '2027-02-06', end_date: null, periodicity: 'MONTHLY' }, business_day_adjust: true }), approve());
    expect(next(state)).toMatchObject({ nominal_date: '2027-02-06', due_date: '2027-02-10', creation_date: '2027-02-05' });
  });

  it('never charges a cycle due before the approval day', () => {
    const { state } = run(create(), approve('2027-02-10'));
    expect(next(state)).toMatchObject({ cycle: 1, nominal_date: '2027-02-28' });
  });

  it('applies changes of lead days, business-day adjustment and start date to charges not yet created', () => {
    const { state } = run(
      create(),
      approve(),
      { type: 'UpdateRecurrence', changes: { charge_lead_days: 10, start_date: '2027-02-06', business_day_adjust: true }, cancel: false },
    );
    expect(next(state)).toEqual({ cycle: 1, nominal_date: '2027-02-06', due_date: '2027-02-10', creation_date: '2027-01-31' });
  });

  it('has no next cycle unless APPROVED, and nextChargeAt is the start of the creation day in Brasília', () => {
    expect(nextChargeAt(run(create()).state)).toBeNull();
    expect(nextChargeAt(run(create(), approve()).state)?.toISOString()).toBe('2027-01-26T03:00:00.000Z');
    const cancelled = run(create(), approve(), { type: 'UpdateRecurrence', changes: {}, cancel: true }).state;
    expect(nextChargeAt(cancelled)).toBeNull();
  });
});

describe('cycle charges', () => {
  it('issues one charge per cycle, only the next one, only while APPROVED', () => {
    const approved = run(create(), approve()).state;
    const issue = issueNext(approved, 'c1');
    const first = recurrence.decide(issue, approved);
    expect(first).toMatchObject({
      ok: true,
      events: [
        {
          type: 'charge.created',
          data: { charge_id: 'c1', cycle: 1, type: 'cycle', due_date: '2027-01-31', amount_centavos: 4990, txid: 'tx-c1', webhook: 'https://shop.example.com/hooks' },
        },
      ],
    });
    // The same cycle again, from a second scheduler or after a crash: nothing new.
    expect(decideAfter(issue, create(), approve(), issue)).toEqual({ ok: true, events: [] });
    expect(decideAfter({ ...issue, charge_id: 'other' } as RecurrenceCommand, create(), approve(), issue)).toEqual({ ok: true, events: [] });
    // A cycle out of order, or any cycle of a recurrence not APPROVED, is refused.
    expect(decideAfter({ ...issue, next: { ...(issue as { next: object }).next, cycle: 3 } } as RecurrenceCommand, create(), approve())).toEqual(
      refusal('cycle 3 is not the next cycle'),
    );
    expect(decideAfter(issue, create())).toEqual(refusal('the recurrence is CREATED and can no longer be changed'));
  });

  it('keeps issued charges when the recurrence is cancelled', () => {
    const approved = run(create(), approve()).state;
    const { state } = run(create(), approve(), issueNext(approved, 'c1'), { type: 'UpdateRecurrence', changes: {}, cancel: true });
    expect(state.status).toBe('CANCELLED');
    expect(state.charges.map((c) => [c.charge_id, c.status])).toEqual([['c1', 'SCHEDULED']]);
  });

  const withCharge = (): RecurrenceCommand[] => [create(), approve(), issueNext(run(create(), approve()).state, 'c1')];

  it('records a payment once, whatever the bank reports twice', () => {
    const paid: RecurrenceCommand = { type: 'RecordChargePaid', charge_id: 'c1', paid_at: '2027-01-31T12:00:00Z', end_to_end_id: 'E1' };
    expect(decideAfter(paid, ...withCharge())).toMatchObject({ ok: true, events: [{ type: 'charge.paid', data: { paid_at: '2027-01-31T12:00:00Z', end_to_end_id: 'E1' } }] });
    expect(decideAfter(paid, ...withCharge(), paid)).toEqual({ ok: true, events: [] });
    expect(run(...withCharge(), paid).state.charges[0]).toMatchObject({ status: 'PAID', paid_at: '2027-01-31T12:00:00Z' });
  });

  it('fails the pending attempt only, and a retry schedules it again, counting retries', () => {
    const failed: RecurrenceCommand = { type: 'RecordChargeFailed', charge_id: 'c1', attempt_date: '2027-01-31', reason: { code: 'AM04', description: 'no funds' } };
    expect(decideAfter(failed, ...withCharge())).toMatchObject({ ok: true, events: [{ type: 'charge.failed', data: { attempt_date: '2027-01-31', retries: 0 } }] });
    expect(decideAfter({ ...failed, attempt_date: '2027-01-30' } as RecurrenceCommand, ...withCharge())).toEqual({ ok: true, events: [] });
    const retry: RecurrenceCommand = { type: 'ScheduleRetry', charge_id: 'c1', date: '2027-02-02' };
    const { state } = run(...withCharge(), failed, retry);
    expect(state.charges[0]).toMatchObject({ status: 'SCHEDULED', retries: 1, attempt_date: '2027-02-02', due_date: '2027-01-31' });
    expect(decideAfter(retry, ...withCharge(), failed, retry)).toEqual({ ok: true, events: [] });
  });

  it('cancels a SCHEDULED or FAILED charge, once; never a PAID one', () => {
    const cancel: RecurrenceCommand = { type: 'CancelCharge', charge_id: 'c1', by: 'merchant' };
    expect(decideAfter(cancel, ...withCharge())).toMatchObject({ ok: true, events: [{ type: 'charge.cancelled', data: { by: 'merchant' } }] });
    expect(decideAfter(cancel, ...withCharge(), cancel)).toEqual({ ok: true, events: [] });
    const paid: RecurrenceCommand = { type: 'RecordChargePaid', charge_id: 'c1', paid_at: '2027-01-31T12:00:00Z', end_to_end_id: null };
    expect(decideAfter(cancel, ...withCharge(), paid)).toEqual(refusal('the charge is PAID and can no longer be cancelled'));
    expect(decideAfter({ ...cancel, charge_id: 'nope' } as RecurrenceCommand, ...withCharge())).toEqual({ ok: false, refusal: { kind: 'not_found', message: 'Charge not found' } });
  });

  it('reschedules a SCHEDULED charge to a new date and debit', () => {
    const reschedule: RecurrenceCommand = { type: 'RescheduleCharge', charge_id: 'c1', due_date: '2027-02-03', txid: 'tx-new' };
    expect(decideAfter(reschedule, ...withCharge())).toMatchObject({
      ok: true,
      events: [{ type: 'charge.rescheduled', data: { previous_due_date: '2027-01-31', due_date: '2027-02-03', txid: 'tx-new' } }],
    });
    expect(run(...withCharge(), reschedule).state.charges[0]).toMatchObject({ due_date: '2027-02-03', attempt_date: '2027-02-03', txid: 'tx-new', reschedules: 1 });
    const paid: RecurrenceCommand = { type: 'RecordChargePaid', charge_id: 'c1', paid_at: '2027-01-31T12:00:00Z', end_to_end_id: null };
    expect(decideAfter(reschedule, ...withCharge(), paid)).toEqual(refusal('the charge is PAID: only a SCHEDULED charge can be rescheduled'));
  });

  it('sends pending charges to the recurrence webhook in effect now', () => {
    const changed: RecurrenceCommand = { type: 'UpdateRecurrence', changes: { webhook: 'https://shop.example.com/new' }, cancel: false };
    const paid: RecurrenceCommand = { type: 'RecordChargePaid', charge_id: 'c1', paid_at: '2027-01-31T12:00:00Z', end_to_end_id: null };
    expect(decideAfter(paid, ...withCharge(), changed)).toMatchObject({ ok: true, events: [{ data: { webhook: 'https://shop.example.com/new' } }] });
  });
});

describe('the activation charge (journey 3)', () => {
  const withActivation = create({ ...created, activation });

  it('is created with the recurrence, due today, and paid by the journey 3 approval with the webhook of its creation', () => {
    expect(recurrence.decide(withActivation, recurrence.initialState)).toMatchObject({
      ok: true,
      events: [
        { type: 'recurrence.created' },
        { type: 'charge.created', data: { charge_id: 'act-1', type: 'activation', due_date: '2027-01-10', amount_centavos: 1000, cycle: null } },
      ],
    });
    const changed: RecurrenceCommand = { type: 'UpdateRecurrence', changes: { webhook: 'https://shop.example.com/new' }, cancel: false };
    expect(decideAfter(approve('2027-01-10', 'JOURNEY_3'), withActivation, changed)).toMatchObject({
      ok: true,
      events: [
        { type: 'recurrence.approved' },
        { type: 'charge.paid', data: { charge_id: 'act-1', paid_at: '2027-01-10T15:00:00.000Z', webhook: 'https://shop.example.com/at-creation' } },
      ],
    });
  });

  it('expires with the activation, ends with the recurrence, and cannot be cancelled, retried or rescheduled', () => {
    expect(decideAfter({ type: 'ExpireActivation' }, withActivation)).toMatchObject({ ok: true, events: [{ type: 'recurrence.activation_expired' }, { type: 'charge.expired' }] });
    expect(decideAfter({ type: 'UpdateRecurrence', changes: {}, cancel: true }, withActivation)).toMatchObject({
      ok: true,
      events: [{ type: 'recurrence.cancelled' }, { type: 'charge.cancelled', data: { by: 'recurrence_ended' } }],
    });
    expect(decideAfter({ type: 'CancelCharge', charge_id: 'act-1', by: 'merchant' }, withActivation)).toEqual(
      refusal('an activation charge cannot be cancelled: it is an immediate Pix payment, not a scheduled debit'),
    );
    expect(decideAfter({ type: 'ScheduleRetry', charge_id: 'act-1', date: '2027-01-12' }, withActivation)).toEqual(
      refusal('an activation charge cannot be retried: it is an immediate Pix payment, not a scheduled debit'),
    );
    expect(decideAfter({ type: 'RescheduleCharge', charge_id: 'act-1', due_date: '2027-01-12', txid: 'x' }, withActivation)).toEqual(
      refusal('an activation charge cannot be rescheduled: it is an immediate Pix payment, not a scheduled debit'),
    );
  });
});
