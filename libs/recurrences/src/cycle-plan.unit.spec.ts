import { cycleChargeId, cycleTxid, planDueCharges } from './cycle-plan';
import { nextChargeAt } from './read-model/recurrences.projection';
import { Recurrence, RecurrenceCommand } from './recurrence';
import { monthlyRecurrence as data, runCommands } from './testing/recurrence-fixture';

// What the scheduler is to do for one recurrence on a given day: the charges due, in cycle order, and whether
// next_charge_at must move from where the projection put it.

const run = (...commands: RecurrenceCommand[]): Recurrence => runCommands(...commands).state;
const approvedOn = (today: string) =>
  run({ type: 'CreateRecurrence', data, today: '2027-01-10' }, { type: 'ApproveRecurrence', journey: 'JOURNEY_2', at: `${today}T15:00:00.000Z`, today });
const cycles = (plan: ReturnType<typeof planDueCharges>) => plan.charges.map((c) => [c.command.next.cycle, c.command.next.due_date, c.asOf]);

describe('planDueCharges', () => {
  it('plans nothing before the first creation day, and leaves next_charge_at to the projection', () => {
    expect(planDueCharges(approvedOn('2027-01-10'), 'production', '2027-01-25')).toEqual({ charges: [] });
  });

  it('plans the cycle whose creation day has come, with ids derived from the cycle and the state after it', () => {
    const plan = planDueCharges(approvedOn('2027-01-10'), 'production', '2027-01-26');
    expect(cycles(plan)).toEqual([[1, '2027-01-31', '2027-01-26']]);
    const [first] = plan.charges;
    expect(first.command).toMatchObject({ type: 'IssueCharge', charge_id: cycleChargeId('r1', '2027-01-31'), txid: cycleTxid('r1', '2027-01-31', 0) });
    expect(first.events.map((e) => e.type)).toEqual(['charge.created']);
    expect(first.state.charges.map((c) => c.cycle)).toEqual([1]);
    expect(plan.postponeTo).toBeUndefined();
  });

  it('in the sandbox, catches up every cycle due by today, in order, each as of its own creation day', () => {
    const plan = planDueCharges(approvedOn('2027-01-10'), 'sandbox', '2027-04-01');
    expect(cycles(plan)).toEqual([
      [1, '2027-01-31', '2027-01-26'],
      [2, '2027-02-28', '2027-02-23'],
      [3, '2027-03-31', '2027-03-26'],
    ]);
    expect(plan.charges.map((c) => c.state.charges.length)).toEqual([1, 2, 3]);
  });

  it('in production, skips cycles whose due date passed and says where next_charge_at must move', () => {
    const r = approvedOn('2027-01-10');
    // The scheduler was down until 2027-04-01: cycles of Jan, Feb and Mar can no longer be debited.
    const plan = planDueCharges(r, 'production', '2027-04-01');
    expect(cycles(plan)).toEqual([]);
    expect(plan.postponeTo).toBe('2027-04-25');
    expect(nextChargeAt(r)?.toISOString()).toBe('2027-01-26T03:00:00.000Z'); // where the projection left it
  });

  it('charges no cycle due before the approval day, as of the approval day when created late', () => {
    const plan = planDueCharges(approvedOn('2027-02-25'), 'sandbox', '2027-02-25');
    expect(cycles(plan)).toEqual([[1, '2027-02-28', '2027-02-25']]);
  });

  it('plans nothing once the schedule has ended, or for a recurrence that is not APPROVED', () => {
    const ended = planDueCharges(approvedOn('2027-01-10'), 'sandbox', '2027-12-31');
    expect(cycles(ended).map(([cycle]) => cycle)).toEqual([1, 2, 3, 4, 5, 6]);
    const created = run({ type: 'CreateRecurrence', data, today: '2027-01-10' });
    expect(planDueCharges(created, 'sandbox', '2027-12-31')).toEqual({ charges: [] });
  });
});
