import { DataSource } from 'typeorm';
import { EventEnvelope, RecurrenceEventTypes } from '@pixauto/contracts';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
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
