/** @shared-system */
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { cpf, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { RunningSystem, sharedSystem } from './support/running-system';

// Journey 1 (docs/api/recurrences.md, and the sandbox payer), through the gateway.

let system: RunningSystem;
let merchant: Merchant;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
});

const sandbox = (method: string, path: string, json?: unknown, key = merchant.sandbox) => call(system.profile.sandbox, method, path, { key, json });
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
const destination = (ispb = '12345678') => ({ agency: '0001', account: '123456', document_number: cpf(123456789), ispb });
/** The solicitation's steps come a few seconds apart. */
const SOON = { timeoutMs: 15_000, intervalMs: 200 };

async function newRecurrence(key = merchant.sandbox, port = system.profile.sandbox): Promise<string> {
  const created = await call(port, 'POST', '/v2/automatic-pix/recurrences', {
    key,
    json: {
      transaction_id: `sol-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
      debtor: { document_number: freshCpf(), name: 'Joana Payer' },
      schedule: { start_date: inDays(10), periodicity: 'MONTHLY' },
      amount: 59.9,
      retry_policy: 'NOT_ALLOWED',
    },
  });
  expect(created.status).toBe(201);
  return created.body.recurrence_id;
}

const solicit = (recurrenceId: string, overrides: object = {}) =>
  sandbox('POST', '/v2/automatic-pix/solicitations', {
    recurrence_id: recurrenceId,
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    destination: destination(),
    ...overrides,
  });
const recurrenceStatus = async (id: string) => (await sandbox('GET', `/v2/automatic-pix/recurrences/${id}`)).body;
const solicitationStatus = async (id: string) => (await sandbox('GET', `/v2/automatic-pix/solicitations/${id}`)).body.status;

describe('POST /v2/automatic-pix/solicitations', () => {
  it('answers 201 with the solicitation, CREATED, and the alert goes SENT then RECEIVED by itself', async () => {
    const recurrenceId = await newRecurrence();
    const created = await solicit(recurrenceId);
    expect(created).toEqual({ status: 201, body: { solicitation_id: expect.any(String), recurrence_id: recurrenceId, status: 'CREATED' } });
    await eventually(
      () => solicitationStatus(created.body.solicitation_id),
      (status) => status === 'RECEIVED',
      SOON,
    );
    expect((await recurrenceStatus(recurrenceId)).status).toBe('CREATED'); // RECEIVED is the alert's path, not the payer's decision
  });

  it('answers 404 "Recurrence not found" for an unknown recurrence and for another account\'s', async () => {
    expect(await solicit('00000000-0000-0000-0000-000000000000')).toEqual({ status: 404, body: { message: 'Recurrence not found' } });
    const other = await newMerchant(system);
    const theirs = await newRecurrence(other.sandbox);
    expect(await solicit(theirs)).toEqual({ status: 404, body: { message: 'Recurrence not found' } });
  });

  it.each([['1234567'], ['123456789'], ['1234567a']])('refuses ISPB %p: "body.destination.ispb must be exactly 8 characters"', async (ispb) => {
    expect(await solicit(await newRecurrence(), { destination: destination(ispb) })).toEqual(invalid('body.destination.ispb must be exactly 8 characters'));
  });

  it('refuses an invalid destination document, and the refusal leaves nothing behind', async () => {
    const recurrenceId = await newRecurrence();
    expect(await solicit(recurrenceId, { destination: { ...destination(), document_number: '52998224724' } })).toEqual(
      invalid('body.destination.document_number is invalid'),
    );
    const rows = await queryService(system.profile.databasePrefix, 'solicitation', 'SELECT count(*)::int AS n FROM solicitations WHERE recurrence_id = $1', [
      recurrenceId,
    ]);
    expect(rows[0].n).toBe(0);
    expect((await solicit(recurrenceId)).status).toBe(201);
  });

  it('keeps one active solicitation per recurrence', async () => {
    const recurrenceId = await newRecurrence();
    const first = await solicit(recurrenceId);
    expect(first.status).toBe(201);
    expect(await solicit(recurrenceId)).toEqual(invalid('the recurrence already has an active solicitation: cancel it or wait for its answer'));
    await sandbox('PATCH', `/v2/automatic-pix/solicitations/${first.body.solicitation_id}`, { status: 'CANCELLED' });
    expect((await solicit(recurrenceId)).status).toBe(201);
  });
});

describe('GET and PATCH /v2/automatic-pix/solicitations/:id', () => {
  it('answers 404 "Solicitation not found" for an unknown solicitation and for another account\'s', async () => {
    expect(await sandbox('GET', '/v2/automatic-pix/solicitations/nope')).toEqual({ status: 404, body: { message: 'Solicitation not found' } });
    const mine = await solicit(await newRecurrence());
    const other = await newMerchant(system);
    expect(await sandbox('GET', `/v2/automatic-pix/solicitations/${mine.body.solicitation_id}`, undefined, other.sandbox)).toEqual({
      status: 404,
      body: { message: 'Solicitation not found' },
    });
    expect(await sandbox('PATCH', '/v2/automatic-pix/solicitations/nope', { status: 'CANCELLED' })).toEqual({
      status: 404,
      body: { message: 'Solicitation not found' },
    });
  });

  it('cancels a solicitation not yet answered and leaves the recurrence alone', async () => {
    const recurrenceId = await newRecurrence();
    const created = await solicit(recurrenceId);
    const cancelled = await sandbox('PATCH', `/v2/automatic-pix/solicitations/${created.body.solicitation_id}`, { status: 'CANCELLED' });
    expect(cancelled).toEqual({ status: 200, body: { solicitation_id: created.body.solicitation_id, recurrence_id: recurrenceId, status: 'CANCELLED' } });
    expect((await recurrenceStatus(recurrenceId)).status).toBe('CREATED');
  });

  it('refuses a missing status and any status but CANCELLED', async () => {
    const created = await solicit(await newRecurrence());
    const path = `/v2/automatic-pix/solicitations/${created.body.solicitation_id}`;
    expect(await sandbox('PATCH', path, {})).toEqual(invalid('body.status is a required field'));
    expect(await sandbox('PATCH', path, { status: 'RECEIVED' })).toEqual(invalid('body.status must be one of the following values: CANCELLED'));
    expect(await solicitationStatus(created.body.solicitation_id)).not.toBe('CANCELLED');
  });
});

describe('the payer in the sandbox', () => {
  it('accepting approves the recurrence with JOURNEY_1', async () => {
    const recurrenceId = await newRecurrence();
    const created = await solicit(recurrenceId);
    await eventually(
      () => solicitationStatus(created.body.solicitation_id),
      (status) => status === 'RECEIVED',
      SOON,
    );
    expect((await sandbox('POST', `/v2/sandbox/solicitations/${created.body.solicitation_id}/answer`, { decision: 'ACCEPT' })).status).toBe(200);
    // recurrence-service learns the answer from Kafka, yet the very next read sees it.
    expect(await recurrenceStatus(recurrenceId)).toMatchObject({ status: 'APPROVED', journey: 'JOURNEY_1' });
    expect(await sandbox('PATCH', `/v2/automatic-pix/solicitations/${created.body.solicitation_id}`, { status: 'CANCELLED' })).toEqual(
      invalid('the solicitation is ACCEPTED and can no longer be cancelled'),
    );
  });

  it('refusing rejects the recurrence, and its Pix code is void', async () => {
    const recurrenceId = await newRecurrence();
    const created = await solicit(recurrenceId);
    await eventually(
      () => solicitationStatus(created.body.solicitation_id),
      (status) => status === 'RECEIVED',
      SOON,
    );
    expect((await sandbox('POST', `/v2/sandbox/solicitations/${created.body.solicitation_id}/answer`, { decision: 'REJECT' })).status).toBe(200);
    const rejected = await recurrenceStatus(recurrenceId);
    expect(rejected.status).toBe('REJECTED');
    expect(rejected.pix_copy_paste).toBeNull();
    expect(rejected).not.toHaveProperty('qrcode');
  });

  it('an institution that does not exist (ISPB 9999...) never receives the alert; the deadline expires the recurrence', async () => {
    const recurrenceId = await newRecurrence();
    const created = await solicit(recurrenceId, { destination: destination('99990001'), expires_at: new Date(Date.now() + 4000).toISOString() });
    await eventually(
      () => solicitationStatus(created.body.solicitation_id),
      (status) => status === 'SENT',
      SOON,
    );
    await eventually(
      () => recurrenceStatus(recurrenceId),
      (recurrence) => recurrence.status === 'EXPIRED',
      SOON,
    );
    expect(await solicitationStatus(created.body.solicitation_id)).toBe('SENT');
    expect((await recurrenceStatus(recurrenceId)).pix_copy_paste).toBeNull();
  });

  it('refuses a decision other than ACCEPT or REJECT, and the sandbox route does not exist in production', async () => {
    const created = await solicit(await newRecurrence());
    expect(await sandbox('POST', `/v2/sandbox/solicitations/${created.body.solicitation_id}/answer`, { decision: 'MAYBE' })).toEqual(
      invalid('body.decision must be one of the following values: ACCEPT, REJECT'),
    );
    expect(
      await call(system.profile.gateway, 'POST', `/v2/sandbox/solicitations/${created.body.solicitation_id}/answer`, {
        key: merchant.production,
        json: { decision: 'ACCEPT' },
      }),
    ).toEqual({
      status: 404,
      body: { message: 'Route not found' },
    });
  });
});

describe('the deadline is durable', () => {
  it('expires a solicitation whose deadline passed while solicitation-service was down (kill -9, restart)', async () => {
    const recurrenceId = await newRecurrence();
    const created = await solicit(recurrenceId, { destination: destination('99990002'), expires_at: new Date(Date.now() + 3000).toISOString() });
    await system.crash('solicitation-service');
    await new Promise((resolve) => setTimeout(resolve, 4000)); // the deadline passes with nobody watching
    await system.restart('solicitation-service');
    const outcome = async () =>
      (
        await queryService(system.profile.databasePrefix, 'solicitation', 'SELECT outcome FROM solicitations WHERE solicitation_id = $1', [
          created.body.solicitation_id,
        ])
      )[0].outcome;
    await eventually(outcome, (found) => found === 'EXPIRED', SOON);
    const expiredEvents = await queryService(
      system.profile.databasePrefix,
      'solicitation',
      `SELECT count(*)::int AS n FROM events WHERE type = 'solicitation.expired' AND data->>'recurrence_id' = $1`,
      [recurrenceId],
    );
    expect(expiredEvents[0].n).toBe(1);
    await eventually(
      () => recurrenceStatus(recurrenceId),
      (recurrence) => recurrence.status === 'EXPIRED',
      SOON,
    );
  });
});
