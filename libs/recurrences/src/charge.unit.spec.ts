import { RecurrenceCreatedData } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { nextCycle } from './charge';
import { nextChargeAt } from './read-model/recurrences.projection';
import { Recurrence, RecurrenceCommand } from './recurrence';
import { monthlyRecurrence as created, givenCommands as after, givenRecurrence as given, runCommands as run } from './testing/recurrence-fixture';

const activation = {
  charge_id: 'act-1',
  amount_centavos: 1000,
  txid: 't1',
  expires_at: '2027-01-10T13:00:00Z',
  webhook: 'https://shop.example.com/at-creation',
  provider: 'PROVIDER_A',
};

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

describe('the next cycle to charge', () => {
  it('starts at start_date, created charge_lead_days before it', () => {
    const { state } = run(create(), approve());
    expect(next(state)).toEqual({ cycle: 1, nominal_date: '2027-01-31', due_date: '2027-01-31', creation_date: '2027-01-26' });
  });

  it('follows the month ends from the start day, up to end_date', () => {
    const commands = [create(), approve()];
    const dues: string[] = [];
    for (let i = 1; ; i++) {
      const { state } = run(...commands);
      const cycle = next(state);
      if (cycle === null) break;
      dues.push(cycle.due_date);
      commands.push(issueNext(state, `c${i}`));
    }
    expect(dues).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30']);
  });

  it('moves a due date off a weekend or bank holiday when business_day_adjust is on (Carnival 2027: Feb 8 and 9)', () => {
    const { state } = run(
      create({ ...created, schedule: { start_date: '2027-02-06', end_date: null, periodicity: 'MONTHLY' }, business_day_adjust: true }),
      approve(),
    );
    expect(next(state)).toMatchObject({ nominal_date: '2027-02-06', due_date: '2027-02-10', creation_date: '2027-02-05' });
  });

  it('never charges a cycle due before the approval day', () => {
    const { state } = run(create(), approve('2027-02-10'));
    expect(next(state)).toMatchObject({ cycle: 1, nominal_date: '2027-02-28' });
  });

  it('applies changes of lead days, business-day adjustment and start date to charges not yet created', () => {
    const { state } = run(create(), approve(), {
      type: 'UpdateRecurrence',
      changes: { charge_lead_days: 10, start_date: '2027-02-06', business_day_adjust: true },
      cancel: false,
    });
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
    const issue = issueNext(run(create(), approve()).state, 'c1');
    after(create(), approve())
      .when(issue)
      .thenMatches([
        {
          type: 'charge.created',
          data: {
            charge_id: 'c1',
            cycle: 1,
            type: 'cycle',
            due_date: '2027-01-31',
            amount_centavos: 4990,
            txid: 'tx-c1',
            webhook: 'https://shop.example.com/hooks',
          },
        },
      ]);
    // The same cycle again, from a second scheduler or after a crash: nothing new.
    after(create(), approve(), issue).when(issue).then([]);
    after(create(), approve(), issue)
      .when({ ...issue, charge_id: 'other' } as RecurrenceCommand)
      .then([]);
    // A cycle out of order, or any cycle of a recurrence not APPROVED, is refused.
    after(create(), approve())
      .when({ ...issue, next: { ...(issue as { next: object }).next, cycle: 3 } } as RecurrenceCommand)
      .thenRefuses(validation('cycle 3 is not the next cycle'));
    after(create()).when(issue).thenRefuses(validation('the recurrence is CREATED and can no longer be changed'));
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
    after(...withCharge())
      .when(paid)
      .thenMatches([{ type: 'charge.paid', data: { paid_at: '2027-01-31T12:00:00Z', end_to_end_id: 'E1' } }]);
    after(...withCharge(), paid)
      .when(paid)
      .then([]);
    expect(run(...withCharge(), paid).state.charges[0]).toMatchObject({ status: 'PAID', paid_at: '2027-01-31T12:00:00Z' });
  });

  it('fails the pending attempt only, and a retry schedules it again, counting retries', () => {
    const failed: RecurrenceCommand = {
      type: 'RecordChargeFailed',
      charge_id: 'c1',
      attempt_date: '2027-01-31',
      reason: { code: 'AM04', description: 'no funds' },
    };
    after(...withCharge())
      .when(failed)
      .thenMatches([{ type: 'charge.failed', data: { attempt_date: '2027-01-31', retries: 0 } }]);
    after(...withCharge())
      .when({ ...failed, attempt_date: '2027-01-30' } as RecurrenceCommand)
      .then([]);
    const retry: RecurrenceCommand = { type: 'ScheduleRetry', charge_id: 'c1', date: '2027-02-02' };
    const { state } = run(...withCharge(), failed, retry);
    expect(state.charges[0]).toMatchObject({ status: 'SCHEDULED', retries: 1, attempt_date: '2027-02-02', due_date: '2027-01-31' });
    after(...withCharge(), failed, retry)
      .when(retry)
      .then([]);
  });

  it('cancels a SCHEDULED or FAILED charge, once; never a PAID one', () => {
    const cancel: RecurrenceCommand = { type: 'CancelCharge', charge_id: 'c1', by: 'merchant' };
    after(...withCharge())
      .when(cancel)
      .thenMatches([{ type: 'charge.cancelled', data: { by: 'merchant' } }]);
    after(...withCharge(), cancel)
      .when(cancel)
      .then([]);
    const paid: RecurrenceCommand = { type: 'RecordChargePaid', charge_id: 'c1', paid_at: '2027-01-31T12:00:00Z', end_to_end_id: null };
    after(...withCharge(), paid)
      .when(cancel)
      .thenRefuses(validation('the charge is PAID and can no longer be cancelled'));
    after(...withCharge())
      .when({ ...cancel, charge_id: 'nope' } as RecurrenceCommand)
      .thenRefuses(notFound('Charge not found'));
  });

  it('reschedules a SCHEDULED charge to a new date and debit', () => {
    const reschedule: RecurrenceCommand = { type: 'RescheduleCharge', charge_id: 'c1', due_date: '2027-02-03', txid: 'tx-new' };
    after(...withCharge())
      .when(reschedule)
      .thenMatches([{ type: 'charge.rescheduled', data: { previous_due_date: '2027-01-31', due_date: '2027-02-03', txid: 'tx-new' } }]);
    expect(run(...withCharge(), reschedule).state.charges[0]).toMatchObject({
      due_date: '2027-02-03',
      attempt_date: '2027-02-03',
      txid: 'tx-new',
      reschedules: 1,
    });
    const paid: RecurrenceCommand = { type: 'RecordChargePaid', charge_id: 'c1', paid_at: '2027-01-31T12:00:00Z', end_to_end_id: null };
    after(...withCharge(), paid)
      .when(reschedule)
      .thenRefuses(validation('the charge is PAID: only a SCHEDULED charge can be rescheduled'));
  });

  it('sends pending charges to the recurrence webhook in effect now', () => {
    const changed: RecurrenceCommand = { type: 'UpdateRecurrence', changes: { webhook: 'https://shop.example.com/new' }, cancel: false };
    const paid: RecurrenceCommand = { type: 'RecordChargePaid', charge_id: 'c1', paid_at: '2027-01-31T12:00:00Z', end_to_end_id: null };
    after(...withCharge(), changed)
      .when(paid)
      .thenMatches([{ data: { webhook: 'https://shop.example.com/new' } }]);
  });
});

describe('the activation charge (journey 3)', () => {
  const withActivation = create({ ...created, activation });

  it('is created with the recurrence, due today, and paid by the journey 3 approval with the webhook of its creation', () => {
    given()
      .when(withActivation)
      .thenMatches([
        { type: 'recurrence.created' },
        { type: 'charge.created', data: { charge_id: 'act-1', type: 'activation', due_date: '2027-01-10', amount_centavos: 1000, cycle: null } },
      ]);
    const changed: RecurrenceCommand = { type: 'UpdateRecurrence', changes: { webhook: 'https://shop.example.com/new' }, cancel: false };
    after(withActivation, changed)
      .when(approve('2027-01-10', 'JOURNEY_3'))
      .thenMatches([
        { type: 'recurrence.approved' },
        { type: 'charge.paid', data: { charge_id: 'act-1', paid_at: '2027-01-10T15:00:00.000Z', webhook: 'https://shop.example.com/at-creation' } },
      ]);
  });

  it('expires with the activation, ends with the recurrence, and cannot be cancelled, retried or rescheduled', () => {
    after(withActivation)
      .when({ type: 'ExpireActivation' })
      .thenMatches([{ type: 'recurrence.activation_expired' }, { type: 'charge.expired' }]);
    after(withActivation)
      .when({ type: 'UpdateRecurrence', changes: {}, cancel: true })
      .thenMatches([{ type: 'recurrence.cancelled' }, { type: 'charge.cancelled', data: { by: 'recurrence_ended' } }]);
    after(withActivation)
      .when({ type: 'CancelCharge', charge_id: 'act-1', by: 'merchant' })
      .thenRefuses(validation('an activation charge cannot be cancelled: it is an immediate Pix payment, not a scheduled debit'));
    after(withActivation)
      .when({ type: 'ScheduleRetry', charge_id: 'act-1', date: '2027-01-12' })
      .thenRefuses(validation('an activation charge cannot be retried: it is an immediate Pix payment, not a scheduled debit'));
    after(withActivation)
      .when({ type: 'RescheduleCharge', charge_id: 'act-1', due_date: '2027-01-12', txid: 'x' })
      .thenRefuses(validation('an activation charge cannot be rescheduled: it is an immediate Pix payment, not a scheduled debit'));
  });
});
