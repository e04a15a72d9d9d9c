import { Tenant } from '@pixauto/contracts';
import { fold, RecordedEvent, SqlStatement } from '@pixauto/event-store';
import { brasiliaStartOfDay } from '@pixauto/pix';
import { planDueCharges } from '../cycle-plan';
import { Recurrence, recurrence, RecurrenceCommand, RecurrenceEvent } from '../recurrence';
import { monthlyRecurrence, runCommands } from '../testing/recurrence-fixture';
import { projectRecurrence } from './recurrences.projection';

// What the recurrence projection writes for an append: the recurrence row only when the recurrence itself changed,
// the narrow charge_schedule row always (a charge moves it), and the charge rows.

const tenant: Tenant = { accountId: 'acc-1', environment: 'production' };

const recordedFrom = (version: number, events: RecurrenceEvent[]): RecordedEvent<RecurrenceEvent>[] =>
  events.map(
    (event, index) =>
      ({
        ...event,
        eventId: `e${version + index}`,
        streamId: 'recurrence:acc-1:production:r1',
        streamType: 'recurrence',
        version: version + index,
        tenant,
        occurredAt: new Date('2027-01-26T03:00:00.000Z'),
      }) as RecordedEvent<RecurrenceEvent>,
  );

/** The events of `commands` in order, recorded at consecutive versions of one stream. */
const history = (...commands: RecurrenceCommand[]): RecordedEvent<RecurrenceEvent>[] => recordedFrom(1, runCommands(...commands).events);

const tableOf = (statement: SqlStatement): string | undefined => /^\s*(?:INSERT INTO|UPDATE) (\w+)/.exec(statement.text)?.[1];

const approved = history(
  { type: 'CreateRecurrence', data: monthlyRecurrence, today: '2027-01-10' },
  { type: 'ApproveRecurrence', journey: 'JOURNEY_2', at: '2027-01-10T15:00:00.000Z', today: '2027-01-10' },
);
const approvedState = fold(recurrence, approved) as Recurrence;

describe('projectRecurrence', () => {
  it("writes the recurrence row and its schedule when the recurrence changed: the first cycle's creation day", () => {
    const statements = projectRecurrence(approved.slice(1), approvedState);

    expect(statements.map(tableOf)).toEqual(['recurrences', 'charge_schedule']);
    expect(statements[1].rows).toEqual([['acc-1', 'production', 'r1', brasiliaStartOfDay('2027-01-26'), 2]]);
  });

  it('writes only the schedule, moved to the next cycle, and the charge row for an append of charges alone', () => {
    const [first] = planDueCharges(approvedState, 'production', '2027-01-26').charges;
    const statements = projectRecurrence(recordedFrom(3, first.events), first.state);

    expect(statements.map(tableOf)).toEqual(['charge_schedule', 'charges']);
    expect(statements[0].rows).toEqual([['acc-1', 'production', 'r1', brasiliaStartOfDay('2027-02-23'), 3]]);
  });

  it('leaves no charge to come on the schedule of a cancelled recurrence', () => {
    const cancelled = recordedFrom(3, [{ type: 'recurrence.cancelled', data: {} } as RecurrenceEvent]);
    const statements = projectRecurrence(cancelled, fold(recurrence, [...approved, ...cancelled]) as Recurrence);

    expect(statements.find((statement) => tableOf(statement) === 'charge_schedule')?.rows).toEqual([['acc-1', 'production', 'r1', null, 3]]);
  });
});
