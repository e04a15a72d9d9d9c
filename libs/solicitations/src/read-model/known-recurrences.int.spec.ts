import { DataSource } from 'typeorm';
import { EventEnvelope, RecurrenceEventTypes } from '@pixauto/contracts';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { recordRecurrenceEvents, recurrence } from '@pixauto/recurrences';
import { monthlyRecurrence, runCommands } from '@pixauto/recurrences/testing';
import { SolicitationsReadModel1763800000400 } from './solicitations.migration';
import { findKnownRecurrence, knownRecurrenceChanges, learnRecurrences } from './solicitations.projection';

let dataSource: DataSource;

beforeAll(async () => {
  dataSource = await createTestDataSource('solicitations_known_recurrences', [SolicitationsReadModel1763800000400]);
});
afterAll(() => dropTestDataSource(dataSource));

const tenant = { account_id: 'acc-1', environment: 'sandbox' as const };
let sequence = 0;
const event = (type: string, recurrenceId: string, version: number, account_id = tenant.account_id): EventEnvelope => ({
  event_id: `evt-${++sequence}`,
  type,
  stream_id: `recurrence:${recurrenceId}`,
  version,
  tenant: { ...tenant, account_id },
  occurred_at: '2026-11-26T12:00:00.000Z',
  data: type === RecurrenceEventTypes.created ? { recurrence_id: recurrenceId, bank: { id_rec: `RR${recurrenceId}` } } : {},
});
const created = (id: string, account?: string) => event(RecurrenceEventTypes.created, id, 1, account);
const known = (id: string, accountId = tenant.account_id) => findKnownRecurrence(dataSource.manager, { accountId, environment: 'sandbox' }, id);

describe('knownRecurrenceChanges', () => {
  it('folds a creation and the changes after it in the batch into one row, and keeps only the last change of an older one', () => {
    const changes = knownRecurrenceChanges([
      created('r1'),
      event(RecurrenceEventTypes.updated, 'r1', 2),
      event(RecurrenceEventTypes.approved, 'r1', 3),
      event(RecurrenceEventTypes.approved, 'r0', 4),
      event(RecurrenceEventTypes.cancelled, 'r0', 5),
    ]);
    expect(changes).toEqual([
      { account_id: 'acc-1', environment: 'sandbox', recurrence_id: 'r1', status: 'APPROVED', version: 3, bank_id_rec: 'RRr1' },
      { account_id: 'acc-1', environment: 'sandbox', recurrence_id: 'r0', status: 'CANCELLED', version: 5 },
    ]);
  });

  it('ignores a change older than one the batch already holds', () => {
    expect(knownRecurrenceChanges([event(RecurrenceEventTypes.cancelled, 'r0', 5), event(RecurrenceEventTypes.approved, 'r0', 4)])).toEqual([
      { account_id: 'acc-1', environment: 'sandbox', recurrence_id: 'r0', status: 'CANCELLED', version: 5 },
    ]);
  });
});

describe('learnRecurrences', () => {
  it('learns creations and changes of a batch, each tenant apart, and a batch delivered again changes nothing', async () => {
    const batch = [created('a1'), created('a1', 'acc-2'), created('a2'), event(RecurrenceEventTypes.approved, 'a2', 2)];
    await learnRecurrences(dataSource.manager, batch);
    await learnRecurrences(dataSource.manager, batch);
    expect(await known('a1')).toEqual({ status: 'CREATED', bankIdRec: 'RRa1' });
    expect(await known('a1', 'acc-2')).toEqual({ status: 'CREATED', bankIdRec: 'RRa1' });
    expect(await known('a2')).toEqual({ status: 'APPROVED', bankIdRec: 'RRa2' });

    await learnRecurrences(dataSource.manager, [event(RecurrenceEventTypes.rejected, 'a1', 2)]);
    expect(await known('a1')).toEqual({ status: 'REJECTED', bankIdRec: 'RRa1' });
    expect(await known('a1', 'acc-2')).toEqual({ status: 'CREATED', bankIdRec: 'RRa1' });
  });

  it('applies the rest of a batch of which only the first part was applied before', async () => {
    const first = created('b1');
    await learnRecurrences(dataSource.manager, [first]);
    await learnRecurrences(dataSource.manager, [first, event(RecurrenceEventTypes.approved, 'b1', 2), created('b2')]);
    expect(await known('b1')).toEqual({ status: 'APPROVED', bankIdRec: 'RRb1' });
    expect(await known('b2')).toEqual({ status: 'CREATED', bankIdRec: 'RRb2' });
  });

  it('never goes back to an older status', async () => {
    await learnRecurrences(dataSource.manager, [created('c1'), event(RecurrenceEventTypes.approved, 'c1', 2), event(RecurrenceEventTypes.cancelled, 'c1', 3)]);
    await learnRecurrences(dataSource.manager, [event(RecurrenceEventTypes.approved, 'c1', 2)]);
    await learnRecurrences(dataSource.manager, [created('c1')]);
    expect(await known('c1')).toEqual({ status: 'CANCELLED', bankIdRec: 'RRc1' });
  });
});

describe('the known recurrences rebuilt from the topic', () => {
  /** One recurrence's events as recurrence-service records them, with their records (version 2) or without (version 1). */
  function stream(recurrenceId: string, accountId: string, withRecords: boolean): EventEnvelope[] {
    const data = { ...monthlyRecurrence, recurrence_id: recurrenceId, bank: { ...monthlyRecurrence.bank, id_rec: `RR${recurrenceId}` } };
    const { events } = runCommands(
      { type: 'CreateRecurrence', data, today: '2027-01-10' },
      { type: 'UpdateRecurrence', changes: { debtor_name: 'Ana' }, cancel: false },
      { type: 'ApproveRecurrence', journey: 'JOURNEY_2', at: '2027-01-10T15:00:00.000Z', today: '2027-01-10' },
      { type: 'UpdateRecurrence', changes: {}, cancel: true },
    );
    const at = new Date('2027-01-10T15:00:00.000Z');
    const recorded = withRecords ? recordRecurrenceEvents(events, recurrence.initialState, [], at) : events;
    return recorded.map((e, index) => ({
      event_id: `${accountId}-${recurrenceId}-${index + 1}`,
      type: e.type,
      stream_id: `recurrence:${accountId}:sandbox:${recurrenceId}`,
      version: index + 1,
      tenant: { account_id: accountId, environment: 'sandbox' },
      occurred_at: at.toISOString(),
      data: e.data,
    }));
  }

  /** What the follower receives: the recurrence events of the topic (charges are passed over by type), in batches of two. */
  async function replay(events: EventEnvelope[]): Promise<void> {
    const followed = events.filter((e) => (Object.values(RecurrenceEventTypes) as string[]).includes(e.type));
    for (let i = 0; i < followed.length; i += 2) await learnRecurrences(dataSource.manager, followed.slice(i, i + 2));
  }

  it('are the same whether the events carry their records (version 2) or not (version 1)', async () => {
    await replay([...stream('v1', 'acc-v1', false), ...stream('v1b', 'acc-v1', false)]);
    await replay([...stream('v1', 'acc-v2', true), ...stream('v1b', 'acc-v2', true)]);
    const [v1, withRecords] = await Promise.all(
      ['acc-v1', 'acc-v2'].map((account) =>
        dataSource.query('SELECT recurrence_id, status, bank_id_rec, version FROM known_recurrences WHERE account_id = $1 ORDER BY recurrence_id', [account]),
      ),
    );
    expect(v1).toEqual([
      { recurrence_id: 'v1', status: 'CANCELLED', bank_id_rec: 'RRv1', version: 4 },
      { recurrence_id: 'v1b', status: 'CANCELLED', bank_id_rec: 'RRv1b', version: 4 },
    ]);
    expect(withRecords).toEqual(v1);
  });
});
