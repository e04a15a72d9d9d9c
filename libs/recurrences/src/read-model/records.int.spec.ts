import { DataSource } from 'typeorm';
import { EventEnvelope, RecurrenceCreatedData, Tenant, Topics } from '@pixauto/contracts';
import { EventStore, rebuildProjection, stateOf } from '@pixauto/event-store';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { TenantClocksTable1763800000060 } from '@pixauto/runtime';
import { planDueCharges } from '../cycle-plan';
import { Recurrence, recurrence, RecurrenceCommand, RecurrenceEvent, RECURRENCE_STREAM, recurrenceStreamId } from '../recurrence';
import { recordOfEnvelope, recordRecurrenceEvents } from '../records';
import { monthlyRecurrence } from '../testing/recurrence-fixture';
import { findCharge } from './charges.projection';
import { RECURRENCE_MIGRATIONS } from './migrations';
import { projectRecurrence } from './recurrences.projection';
import { findRecurrence } from './recurrences.queries';

// The records recurrence-service publishes, on the real PostgreSQL server: each event's record is what GET answers
// once the event applied, every event of the stream goes to one topic, and the read models rebuilt from the events
// are the ones the live appends wrote, whether the events carry their records (version 2) or not (version 1).

const tenant: Tenant = { accountId: 'acc-records', environment: 'production' };
const T0 = Date.parse('2027-01-10T15:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

let dataSource: DataSource;
let store: EventStore;
beforeAll(async () => {
  dataSource = await createTestDataSource('recurrence_records', [TenantClocksTable1763800000060, ...RECURRENCE_MIGRATIONS]);
  store = new EventStore(dataSource);
});
afterAll(() => dropTestDataSource(dataSource));

/** Runs a command as recurrence-service does; `withRecords` false records it as before events carried their record. */
async function run(recurrenceId: string, command: RecurrenceCommand, now: Date, withRecords: boolean) {
  const outcome = await store.handle(recurrence, command, {
    streamId: recurrenceStreamId(tenant, recurrenceId),
    streamType: RECURRENCE_STREAM,
    tenant,
    now,
    topic: Topics.recurrences.name,
    project: projectRecurrence,
    ...(withRecords && { record: recordRecurrenceEvents }),
  });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.refusal));
  return outcome.state as Recurrence;
}

/** The scheduler's path: the due cycle charges planned from the stream, then appended with appendAll. */
async function issueDueCharges(recurrenceId: string, today: string, now: Date, withRecords: boolean) {
  const history = await store.readStream<RecurrenceEvent>(recurrenceStreamId(tenant, recurrenceId));
  const state = stateOf(recurrence, history) as Recurrence;
  const { charges } = planDueCharges(state, 'production', today);
  const events = charges.flatMap((c) => c.events);
  await store.appendAll<RecurrenceEvent>([
    {
      request: {
        streamId: recurrenceStreamId(tenant, recurrenceId),
        streamType: RECURRENCE_STREAM,
        expectedVersion: history.length,
        events: withRecords ? recordRecurrenceEvents(events, state, history, now) : events,
        tenant,
        occurredAt: now,
        topic: Topics.recurrences.name,
      },
      project: (recorded) => projectRecurrence(recorded, charges[charges.length - 1].state),
    },
  ]);
  return charges.map((c) => c.command.charge_id);
}

/** One recurrence's life: created (with an activation), approved, a cycle charged and paid, renamed, its webhook cleared, cancelled. */
async function live(recurrenceId: string, withRecords: boolean): Promise<string[]> {
  const data: RecurrenceCreatedData = {
    ...monthlyRecurrence,
    recurrence_id: recurrenceId,
    transaction_id: `contract-${recurrenceId}`,
    bank: { ...monthlyRecurrence.bank, id_rec: `RR-${recurrenceId}` },
    activation: {
      charge_id: `act-${recurrenceId}`,
      amount_centavos: 1990,
      txid: `tx-act-${recurrenceId}`,
      expires_at: at(60).toISOString(),
      webhook: 'https://shop.example.com/activation',
      provider: 'PROVIDER_A',
    },
  };
  await run(recurrenceId, { type: 'CreateRecurrence', data, today: '2027-01-10' }, at(0), withRecords);
  await run(recurrenceId, { type: 'ApproveRecurrence', journey: 'JOURNEY_3', at: at(5).toISOString(), today: '2027-01-10' }, at(5), withRecords);
  const [cycle] = await issueDueCharges(recurrenceId, '2027-01-26', at(16 * 24 * 60), withRecords);
  const paidAt = at(21 * 24 * 60).toISOString();
  await run(recurrenceId, { type: 'RecordChargePaid', charge_id: cycle, paid_at: paidAt, end_to_end_id: 'E2E1' }, at(21 * 24 * 60 + 1), withRecords);
  await run(recurrenceId, { type: 'UpdateRecurrence', changes: { debtor_name: 'Maria Souza' }, cancel: false }, at(22 * 24 * 60), withRecords);
  await run(recurrenceId, { type: 'UpdateRecurrence', changes: { webhook: null }, cancel: true }, at(23 * 24 * 60), withRecords);
  return [`act-${recurrenceId}`, cycle];
}

const published = async (recurrenceId: string): Promise<{ topic: string; envelope: EventEnvelope }[]> =>
  dataSource.query(`SELECT topic, payload AS envelope FROM outbox WHERE message_key = $1 ORDER BY id`, [recurrenceStreamId(tenant, recurrenceId)]);

const readModels = async () => ({
  recurrences: await dataSource.query('SELECT * FROM recurrences ORDER BY recurrence_id'),
  charges: await dataSource.query('SELECT * FROM charges ORDER BY charge_id'),
  schedule: await dataSource.query('SELECT * FROM charge_schedule ORDER BY recurrence_id'),
});

let chargesOfV2: string[];
beforeAll(async () => {
  chargesOfV2 = await live('r-v2', true);
  await live('r-v1', false);
});

describe('the records of a recurrence stream', () => {
  it('go with every event, on one topic in the stream order, the last ones what GET answers now', async () => {
    const messages = await published('r-v2');
    expect(messages.map((m) => m.envelope.version)).toEqual(messages.map((_, index) => index + 1));
    expect(new Set(messages.map((m) => m.topic))).toEqual(new Set([Topics.recurrences.name]));
    expect(messages.every((m) => recordOfEnvelope(m.envelope) !== undefined)).toBe(true);
    const last = messages[messages.length - 1].envelope;
    expect(recordOfEnvelope(last)).toEqual(await findRecurrence(dataSource.manager, tenant, 'r-v2'));
    expect(recordOfEnvelope(last)).toMatchObject({ status: 'CANCELLED', debtor: { name: 'Maria Souza' }, webhook: null, pix_copy_paste: null });
    for (const chargeId of chargesOfV2) {
      const lastOfCharge = messages.filter((m) => (m.envelope.data as { charge_id?: string }).charge_id === chargeId).pop()?.envelope;
      expect(lastOfCharge && recordOfEnvelope(lastOfCharge)).toEqual(await findCharge(dataSource.manager, tenant, chargeId));
    }
  });

  it('are absent from the events recorded as before (version 1), which the rest of this test rebuilds from too', async () => {
    const messages = await published('r-v1');
    expect(messages.map((m) => recordOfEnvelope(m.envelope))).toEqual(messages.map(() => undefined));
  });
});

describe('rebuildProjection', () => {
  it('rebuilds from the events, with their records or without, the read models the live appends wrote', async () => {
    const before = await readModels();
    expect(before.recurrences).toHaveLength(2);
    expect(before.charges).toHaveLength(4);
    await dataSource.query('TRUNCATE recurrences, charges, charge_schedule');

    const applied = await rebuildProjection(dataSource, {
      streamType: RECURRENCE_STREAM,
      reset: (tx) => tx.query('TRUNCATE recurrences, charges, charge_schedule').then(() => undefined),
      decider: recurrence,
      project: projectRecurrence,
    });

    expect(applied).toBe((await published('r-v2')).length + (await published('r-v1')).length);
    expect(await readModels()).toEqual(before);
  });
});
