/** @shared-system */
import { Webhook } from 'standardwebhooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from '@pixauto/contracts';
import { eventually } from '@pixauto/testing';
import { chargeClient } from './support/charges';
import { admin, freshCpf, Merchant } from './support/fixtures';
import { Answer, call } from './support/http';
import { brasiliaDay, openAccount, recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';
import { Received, WebhookReceiver } from './support/webhook-receiver';

// Webhooks (docs/decisions/webhooks.md): every event of a resource with a webhook reaches it signed
// (Standard Webhooks, verified here with the `standardwebhooks` library), retried under the same webhook-id, and
// the merchant reads and replays each delivery through GET/POST /v2/webhooks/deliveries.

let system: RunningSystem;
let receiver: WebhookReceiver;
let merchant: Merchant;
/** The account's sandbox signing secret: every webhook here is a sandbox one. */
let secret: string;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  await receiver.start();
  system = sharedSystem();
  merchant = await openAccount(system);
  secret = (await admin(system, 'GET', `/admin/accounts/${merchant.accountId}`)).body.sandbox_webhook_secret;
});
afterAll(async () => {
  await receiver?.stop();
});

let names = 0;
const fresh = (label: string) => `${label}-${process.pid}-${++names}`;
const sandbox = (method: string, path: string, json?: unknown, key = merchant.sandbox) => call(system.profile.sandbox, method, path, { key, json });
const deliveries = (query: string, key = merchant.sandbox) => sandbox('GET', `/v2/webhooks/deliveries${query}`, undefined, key);

/** Verifies the signature as a merchant would, and returns the parsed body. */
function verified(received: Received, withSecret = secret) {
  return new Webhook(withSecret).verify(received.body, received.headers) as {
    type: string;
    environment: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}

/** A recurrence as webhooks (and list results) show it: without the QR image. */
const asListed = (recurrence: Record<string, unknown>) => {
  const { qrcode, ...rest } = recurrence;
  void qrcode;
  return rest;
};

describe('a recurrence and its charges reach their webhook, signed', () => {
  it('created, approved, charge created and paid, cancelled: each verified, in order, its data as GET shows it', async () => {
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const charges = chargeClient(system, merchant);
    const path = fresh('recurrence');
    const created = await recurrences.create(
      recurrenceBody({ webhook: receiver.url('ok', path), schedule: { start_date: brasiliaDay(2), periodicity: 'MONTHLY' } }),
    );
    expect(created.status).toBe(201);
    const id = created.body.recurrence_id;
    const [first] = await receiver.waitFor(path, 1);
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(verified(first)).toEqual({ type: 'recurrence.created', environment: 'sandbox', timestamp: expect.any(String), data: asListed(created.body) });

    expect((await recurrences.authorize(id)).status).toBe(200);
    const charge = (
      await eventually(
        () => charges.list(id),
        (a) => a.body.charges.length === 1,
        WITHIN_SECONDS,
      )
    ).body.charges[0];
    expect((await charges.pay(charge.charge_id)).status).toBe(200);
    await eventually(
      () => charges.get(charge.charge_id),
      (a) => a.body.status === 'PAID',
      WITHIN_SECONDS,
    );
    expect((await recurrences.update(id, { status: 'CANCELLED' })).status).toBe(200);

    const all = await receiver.waitFor(path, 5);
    const bodies = all.map((r) => verified(r));
    expect(bodies.map((b) => b.type)).toEqual(['recurrence.created', 'recurrence.approved', 'charge.created', 'charge.paid', 'recurrence.cancelled']);
    expect(bodies[1].data).toEqual({ ...asListed(created.body), status: 'APPROVED', journey: 'JOURNEY_2' });
    expect(bodies[3].data).toEqual((await charges.get(charge.charge_id)).body);
    expect(bodies[4].data).toEqual(asListed((await recurrences.get(id)).body));
    expect(new Set(all.map((r) => r.headers['webhook-id'])).size).toBe(5);

    // The delivery log shows each, delivered, under the webhook-id the endpoint saw.
    const log = await deliveries(`?resource_id=${id}`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries.map((d: { event_type: string }) => d.event_type).sort()).toEqual([
      'recurrence.approved',
      'recurrence.cancelled',
      'recurrence.created',
    ]);
    const one = await sandbox('GET', `/v2/webhooks/deliveries/${all[0].headers['webhook-id']}`);
    expect(one.body).toMatchObject({
      id: all[0].headers['webhook-id'],
      event_type: 'recurrence.created',
      resource_type: 'recurrence',
      resource_id: id,
      url: receiver.url('ok', path),
      status: 'delivered',
      attempt_count: 1,
      next_attempt_at: null,
      payload: JSON.parse(all[0].body),
      attempts: [{ number: 1, url: receiver.url('ok', path), status_code: 204, error: null, latency_ms: expect.any(Number), trigger: 'schedule' }],
    });
  });

  it('a rejected recurrence, and a charge that fails and is retried', async () => {
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const charges = chargeClient(system, merchant);
    const path = fresh('rejected');
    const rejected = await recurrences.create(recurrenceBody({ webhook: receiver.url('ok', path) }));
    expect((await recurrences.reject(rejected.body.recurrence_id)).status).toBe(200);
    expect((await receiver.waitFor(path, 2)).map((r) => verified(r).type)).toEqual(['recurrence.created', 'recurrence.rejected']);

    const failing = fresh('failing');
    const r = await recurrences.create(
      recurrenceBody({ webhook: receiver.url('ok', failing), retry_policy: 'ALLOWS_3R_7D', schedule: { start_date: brasiliaDay(3), periodicity: 'MONTHLY' } }),
    );
    await recurrences.authorize(r.body.recurrence_id);
    const charge = (
      await eventually(
        () => charges.list(r.body.recurrence_id),
        (a) => a.body.charges.length === 1,
        WITHIN_SECONDS,
      )
    ).body.charges[0];
    expect((await charges.fail(charge.charge_id)).status).toBe(200);
    expect((await charges.retry(charge.charge_id, { date: brasiliaDay(5) })).status).toBe(200);
    const types = (await receiver.waitFor(failing, 5)).map((x) => verified(x).type);
    expect(types).toEqual(['recurrence.created', 'recurrence.approved', 'charge.created', 'charge.failed', 'charge.retry_scheduled']);
  });

  it('an expired recurrence: its solicitation deadline passed on the test clock', async () => {
    const own = await openAccount(system);
    const clock = chargeClient(system, own);
    const path = fresh('expired');
    const created = await recurrenceClient(system, own, 'sandbox').create(
      recurrenceBody({ webhook: receiver.url('ok', path), schedule: { start_date: brasiliaDay(20), periodicity: 'MONTHLY' } }),
    );
    const deadline = new Date(Date.parse((await clock.clock()).body.now) + 2 * 86_400_000).toISOString();
    // An ISPB that does not exist: the payer never answers, and the deadline expires the recurrence.
    const solicitation = await call(system.profile.sandbox, 'POST', '/v2/automatic-pix/solicitations', {
      key: own.sandbox,
      json: {
        recurrence_id: created.body.recurrence_id,
        expires_at: deadline,
        destination: { agency: '0001', account: '12345', document_number: '52998224725', ispb: '99999999' },
      },
    });
    expect(solicitation.status).toBe(201);
    await clock.advance({ days: 3 });
    const [, expired] = await receiver.waitFor(path, 2);
    const body = new Webhook((await admin(system, 'GET', `/admin/accounts/${own.accountId}`)).body.sandbox_webhook_secret).verify(
      expired.body,
      expired.headers,
    ) as {
      type: string;
      data: unknown;
    };
    expect(body).toMatchObject({ type: 'recurrence.expired', data: { recurrence_id: created.body.recurrence_id, status: 'EXPIRED', pix_copy_paste: null } });
  });

  it('journey 3: the activation charge and the -ativacao deposit reach the webhook in effect at creation', async () => {
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const path = fresh('activation');
    const created = await recurrences.create(recurrenceBody({ webhook: receiver.url('ok', path), activation_amount: 19.9 }));
    // A webhook replaced after creation does not move the activation's.
    expect((await recurrences.update(created.body.recurrence_id, { webhook: receiver.url('ok', `${path}-new`) })).status).toBe(200);
    expect((await recurrences.authorize(created.body.recurrence_id)).status).toBe(200);
    const atCreation = await receiver.waitFor(path, 4);
    const types = atCreation.map((x) => verified(x).type);
    expect(types).toEqual(expect.arrayContaining(['recurrence.created', 'charge.created', 'charge.paid', 'pix_charge.paid']));
    const deposit = atCreation.map((x) => verified(x)).find((b) => b.type === 'pix_charge.paid');
    expect(deposit?.data).toMatchObject({ transaction_id: `${created.body.contract}-ativacao`, status: 'PAID', amount: 19.9 });
    // The first cycle's charge may follow to the new webhook: only the activation's stay with the old one.
    const atNew = (await receiver.waitFor(`${path}-new`, 2)).map((x) => verified(x));
    expect(atNew.slice(0, 2).map((b) => b.type)).toEqual(['recurrence.updated', 'recurrence.approved']);
    const activation = atCreation.map((x) => verified(x)).find((b) => b.type === 'charge.created')?.data;
    expect(activation?.charge_id).toEqual(expect.any(String));
    expect(atNew.filter((b) => b.data.charge_id === activation?.charge_id)).toEqual([]);
  });
});

describe('cash-in and payouts', () => {
  it('a Pix charge paid, and a payout through its status changes', async () => {
    const pixPath = fresh('pix');
    const charge = await sandbox('POST', '/v2/pix', {
      transaction_id: fresh('cob'),
      amount: 25.5,
      payer: { document_number: freshCpf(), name: 'Maria Silva' },
      webhook: receiver.url('ok', pixPath),
    });
    expect(charge.status).toBe(201);
    expect((await sandbox('POST', `/v2/sandbox/pix/${charge.body.id}/pay`)).status).toBe(200);
    const pix = (await receiver.waitFor(pixPath, 2)).map((x) => verified(x));
    expect(pix.map((b) => b.type)).toEqual(['pix_charge.created', 'pix_charge.paid']);
    const { qrcode, ...shown } = (await sandbox('GET', `/v2/pix?id=${charge.body.id}`)).body;
    void qrcode;
    expect(pix[1].data).toEqual(shown);

    const payoutPath = fresh('payout');
    const payout = await sandbox('POST', '/v2/payout/pix', {
      transaction_id: fresh('saque'),
      amount: 10,
      name: 'Maria Silva',
      document_number: freshCpf(),
      pix_key: 'maria@example.com',
      webhook: receiver.url('ok', payoutPath),
    });
    expect(payout.status).toBe(201);
    const moves = (await receiver.waitFor(payoutPath, 3)).map((x) => verified(x));
    expect(moves.map((b) => [b.type, b.data.status])).toEqual([
      ['payout.created', 0],
      ['payout.status_changed', 4],
      ['payout.status_changed', 1],
    ]);
    expect(moves[2].data).toEqual((await sandbox('GET', `/v2/withdrawals?id=${payout.body.id}`)).body);
  });
});

describe('delivery semantics', () => {
  it('a failing endpoint gets the same webhook-id again; the log shows both attempts', async () => {
    const path = fresh('flaky');
    await recurrenceClient(system, merchant, 'sandbox').create(recurrenceBody({ webhook: receiver.url('fail-once', path) }));
    const [first, second] = await receiver.waitFor(path, 2, 30_000);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.at - first.at).toBeGreaterThan(4000); // the schedule's 5 s, ±10%
    verified(second);
    const log = await eventually(
      () => sandbox('GET', `/v2/webhooks/deliveries/${first.headers['webhook-id']}`),
      (a) => a.body.status === 'delivered',
      WITHIN_SECONDS,
    );
    expect(log.body.attempts).toMatchObject([
      { number: 1, status_code: 500, error: 'HTTP 500', response_body: 'not now' },
      { number: 2, status_code: 204, error: null },
    ]);
  });

  it('410 Gone stops deliveries to that URL for that resource', async () => {
    const path = fresh('gone');
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const created = await recurrences.create(recurrenceBody({ webhook: receiver.url('gone', path) }));
    await receiver.waitFor(path, 1);
    await recurrences.authorize(created.body.recurrence_id);
    const log = await eventually(
      () => deliveries(`?resource_id=${created.body.recurrence_id}`),
      (a) => a.body.deliveries.length === 2 && a.body.deliveries.every((d: { status: string }) => d.status === 'failed'),
      WITHIN_SECONDS,
    );
    expect(log.body.deliveries.map((d: { attempt_count: number }) => d.attempt_count).sort()).toEqual([0, 1]);
    // Both deliveries final: every request they made was answered, so the receiver has recorded it.
    expect(receiver.on(path)).toHaveLength(1);
  });

  it('a cleared webhook receives nothing more; a replaced one receives the pending charge payment', async () => {
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const charges = chargeClient(system, merchant);
    const cleared = fresh('cleared');
    const a = await recurrences.create(recurrenceBody({ webhook: receiver.url('ok', cleared) }));
    await receiver.waitFor(cleared, 1);
    expect((await recurrences.update(a.body.recurrence_id, { webhook: null })).status).toBe(200);
    await recurrences.authorize(a.body.recurrence_id);

    const before = fresh('before');
    const after = fresh('after');
    const b = await recurrences.create(
      recurrenceBody({ webhook: receiver.url('ok', before), schedule: { start_date: brasiliaDay(2), periodicity: 'MONTHLY' } }),
    );
    await recurrences.authorize(b.body.recurrence_id);
    const charge = (
      await eventually(
        () => charges.list(b.body.recurrence_id),
        (x) => x.body.charges.length === 1,
        WITHIN_SECONDS,
      )
    ).body.charges[0];
    await receiver.waitFor(before, 3);
    expect((await recurrences.update(b.body.recurrence_id, { webhook: receiver.url('ok', after) })).status).toBe(200);
    await charges.pay(charge.charge_id);
    expect((await receiver.waitFor(after, 2)).map((x) => verified(x).type)).toEqual(['recurrence.updated', 'charge.paid']);
    // The next event of each recurrence, to a URL of its own: once it has arrived, one sent before it where it should
    // not have gone would have arrived too.
    expect((await recurrences.update(a.body.recurrence_id, { webhook: receiver.url('ok', `${cleared}-next`) })).status).toBe(200);
    expect((await recurrences.update(b.body.recurrence_id, { webhook: receiver.url('ok', `${after}-next`) })).status).toBe(200);
    await receiver.waitFor(`${cleared}-next`, 1);
    await receiver.waitFor(`${after}-next`, 1);
    expect(receiver.on(cleared)).toHaveLength(1);
    expect(receiver.on(before)).toHaveLength(3);
  });

  it('pending retries to a replaced URL stop', async () => {
    const own = await openAccount(system); // its own test clock, moved below
    const recurrences = recurrenceClient(system, own, 'sandbox');
    const path = fresh('replaced-failing');
    const created = await recurrences.create(recurrenceBody({ webhook: receiver.url('fail', path) }));
    await receiver.waitFor(path, 1);
    expect((await recurrences.update(created.body.recurrence_id, { webhook: receiver.url('ok', `${path}-new`) })).status).toBe(200);
    const log = await eventually(
      () => deliveries(`?resource_id=${created.body.recurrence_id}&event_type=recurrence.created`, own.sandbox),
      (x) => x.body.deliveries[0]?.status === 'cancelled',
      WITHIN_SECONDS,
    );
    expect(log.body.deliveries[0]).toMatchObject({ status: 'cancelled', last_error: 'the webhook was replaced', next_attempt_at: null });
    // Another delivery failing after it, then the clock past every retry's time (the test clock plays them), twice: once
    // the other's third attempt has come, the replaced one's retry would have come too.
    const next = fresh('failing-after');
    await recurrences.create(recurrenceBody({ webhook: receiver.url('fail', next) }));
    const clock = chargeClient(system, own);
    for (let attempt = 2; attempt <= 3; attempt++) {
      await receiver.waitFor(next, attempt - 1);
      await clock.advance({ days: 2 }); // longer than any wait of the schedule (24 h, +10% jitter at most)
      await receiver.waitFor(next, attempt);
    }
    expect(receiver.on(path)).toHaveLength(1);
  });

  it('an endpoint that hangs does not delay another tenant, on another host or on the same one', async () => {
    const slow = await openAccount(system);
    const hanging = new WebhookReceiver();
    await hanging.start();
    try {
      const hang = fresh('hang');
      const slowRecurrences = recurrenceClient(system, slow, 'sandbox');
      for (let i = 0; i < 12; i++) {
        await slowRecurrences.create(recurrenceBody({ webhook: hanging.url('hang', `${hang}-a${i}`) }));
        await slowRecurrences.create(recurrenceBody({ webhook: receiver.url('hang', `${hang}-b${i}`) }));
      }
      await hanging.waitFor('', 8);
      const path = fresh('prompt');
      const started = performance.now();
      await recurrenceClient(system, merchant, 'sandbox').create(recurrenceBody({ webhook: receiver.url('ok', path) }));
      await receiver.waitFor(path, 1);
      expect(performance.now() - started).toBeLessThan(2000);
      // The hanging endpoint holds at most its own 8 requests at once.
      expect(hanging.received.length).toBe(8);
    } finally {
      await hanging.stop();
    }
  });

  it('the sandbox test clock plays the retries, and the last one fails the delivery', async () => {
    const own = await openAccount(system);
    const clock = chargeClient(system, own);
    const path = fresh('always-failing');
    const created = await recurrenceClient(system, own, 'sandbox').create(recurrenceBody({ webhook: receiver.url('fail', path) }));
    for (let attempt = 2; attempt <= 10; attempt++) {
      await receiver.waitFor(path, attempt - 1);
      await clock.advance({ days: 2 }); // longer than any wait of the schedule (24 h, +10% jitter at most)
      await receiver.waitFor(path, attempt);
    }
    const log = await eventually(
      () => call(system.profile.sandbox, 'GET', `/v2/webhooks/deliveries?resource_id=${created.body.recurrence_id}`, { key: own.sandbox }),
      (x) => x.body.deliveries[0]?.status === 'failed',
      WITHIN_SECONDS,
    );
    expect(log.body.deliveries[0]).toMatchObject({ attempt_count: 10, next_attempt_at: null, last_error: 'HTTP 500' });
    expect(new Set(receiver.on(path).map((r) => r.headers['webhook-id'])).size).toBe(1);
  });
});

describe('the delivery log', () => {
  it('filters and pages; refuses bad filters in the spec shape', async () => {
    const page = await deliveries('?status=delivered&page_size=2&page=0');
    expect(page.status).toBe(200);
    expect(page.body.pagination).toMatchObject({ current_page: 0, page_size: 2 });
    expect(page.body.deliveries.length).toBeLessThanOrEqual(2);
    expect(page.body.deliveries.every((d: { status: string }) => d.status === 'delivered')).toBe(true);
    expect(await deliveries('?status=done&page_size=0')).toEqual({
      status: 400,
      body: {
        type: 'ValidationError',
        message: 'query.status must be one of pending, delivered, failed, cancelled. query.page_size must be an integer from 1 to 100',
      },
    });
  });

  it("another tenant's delivery is not found; a read-only key reads but cannot retry; a retry sends again under the same webhook-id", async () => {
    const path = fresh('manual');
    await recurrenceClient(system, merchant, 'sandbox').create(recurrenceBody({ webhook: receiver.url('ok', path) }));
    const [first] = await receiver.waitFor(path, 1);
    const id = first.headers['webhook-id'];
    const other = await openAccount(system);
    expect(await sandbox('GET', `/v2/webhooks/deliveries/${id}`, undefined, other.sandbox)).toEqual({ status: 404, body: { message: 'Delivery not found' } });
    expect(await sandbox('POST', `/v2/webhooks/deliveries/${id}/retry`, undefined, other.sandbox)).toEqual({
      status: 404,
      body: { message: 'Delivery not found' },
    });
    expect((await call(system.profile.gateway, 'GET', `/v2/webhooks/deliveries/${id}`, { key: merchant.production })).status).toBe(404);

    const readOnly = (await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'sandbox', read_only: true })).body.api_key;
    expect((await sandbox('GET', `/v2/webhooks/deliveries/${id}`, undefined, readOnly)).status).toBe(200);
    expect((await sandbox('POST', `/v2/webhooks/deliveries/${id}/retry`, undefined, readOnly)).status).toBe(403);

    const retried = await sandbox('POST', `/v2/webhooks/deliveries/${id}/retry`);
    expect(retried).toMatchObject({ status: 202, body: { id, status: 'delivered' } });
    const [, again] = await receiver.waitFor(path, 2);
    expect(again.headers['webhook-id']).toBe(id);
    expect(again.body).toBe(first.body);
    const log = await eventually(
      () => sandbox('GET', `/v2/webhooks/deliveries/${id}`),
      (a) => a.body.attempts.length === 2,
      WITHIN_SECONDS,
    );
    expect(log.body.attempts[1]).toMatchObject({ number: 2, status_code: 204, trigger: 'manual' });
  });
});

/** A POST with an Idempotency-Key, on the sandbox unless told: the status, the body, and whether it was replayed. */
async function postWithKey(path: string, json: unknown, idempotencyKey: string, key = merchant.sandbox) {
  const response = await fetch(`http://127.0.0.1:${system.profile.sandbox}${path}`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(json),
  });
  const answer: Answer = { status: response.status, body: await response.json() };
  return { ...answer, replayed: response.headers.get('idempotent-replayed') };
}

/** The attempts of a delivery once `done` holds for them. */
const attemptsOf = async (id: string, done: (attempts: { trigger: string; status_code: number | null }[]) => boolean, key = merchant.sandbox) =>
  (
    await eventually(
      () => sandbox('GET', `/v2/webhooks/deliveries/${id}`, undefined, key),
      (a) => done(a.body.attempts),
      WITHIN_SECONDS,
    )
  ).body.attempts as { trigger: string; status_code: number | null }[];

describe('retrying every delivery a filter matches', () => {
  it('queues one more attempt for each match, every page of them, and for nothing else; a repeat with its key replays', async () => {
    const own = await openAccount(system);
    const recurrences = recurrenceClient(system, own, 'sandbox');
    const failing = fresh('bulk-failing');
    const ok = fresh('bulk-ok');
    for (let i = 0; i < 3; i++) await recurrences.create(recurrenceBody({ webhook: receiver.url('fail', `${failing}-${i}`) }));
    const delivered = await recurrences.create(recurrenceBody({ webhook: receiver.url('ok', ok) }));
    for (let i = 0; i < 3; i++) await receiver.waitFor(`${failing}-${i}`, 1);
    await receiver.waitFor(ok, 1);
    const pending = await eventually(
      () => sandbox('GET', '/v2/webhooks/deliveries?status=pending&page_size=1', undefined, own.sandbox),
      (a) => a.body.pagination.total_items === 3,
      WITHIN_SECONDS,
    );
    expect(pending.body.pagination.total_pages).toBe(3);
    const ids = (await sandbox('GET', '/v2/webhooks/deliveries?status=pending', undefined, own.sandbox)).body.deliveries.map((d: { id: string }) => d.id);

    const retried = await postWithKey('/v2/webhooks/deliveries/retry?status=pending&event_type=recurrence.created', {}, fresh('bulk'), own.sandbox);
    expect(retried).toEqual({ status: 202, body: { queued: 3 }, replayed: null });
    for (let i = 0; i < 3; i++) await receiver.waitFor(`${failing}-${i}`, 2);
    for (const id of ids) await attemptsOf(id, (a) => a.some((x) => x.trigger === 'manual'), own.sandbox);
    await sleep(1500); // several of the dispatcher's claims (every 250 ms): a match is attempted once, not again
    for (const id of ids) {
      const { attempts } = (await sandbox('GET', `/v2/webhooks/deliveries/${id}`, undefined, own.sandbox)).body;
      expect(attempts.filter((x: { trigger: string }) => x.trigger === 'manual')).toHaveLength(1);
    }
    // The delivered one did not match `status=pending`: no attempt beyond its first.
    const [deliveredOne] = (await sandbox('GET', `/v2/webhooks/deliveries?resource_id=${delivered.body.recurrence_id}`, undefined, own.sandbox)).body
      .deliveries;
    expect((await sandbox('GET', `/v2/webhooks/deliveries/${deliveredOne.id}`, undefined, own.sandbox)).body.attempts).toHaveLength(1);
    expect(receiver.on(ok)).toHaveLength(1);

    // The same key replays the first answer; it queues nothing more.
    const key = fresh('bulk-repeat');
    const first = await postWithKey(`/v2/webhooks/deliveries/retry?resource_id=${delivered.body.recurrence_id}`, {}, key, own.sandbox);
    expect(first).toEqual({ status: 202, body: { queued: 1 }, replayed: null });
    expect(await postWithKey(`/v2/webhooks/deliveries/retry?resource_id=${delivered.body.recurrence_id}`, {}, key, own.sandbox)).toEqual({
      status: 202,
      body: { queued: 1 },
      replayed: 'true',
    });
    await receiver.waitFor(ok, 2);
    await sleep(1500);
    expect(receiver.on(ok)).toHaveLength(2);
    // Another account's filters reach none of these.
    expect(await sandbox('POST', `/v2/webhooks/deliveries/retry?resource_id=${delivered.body.recurrence_id}`)).toEqual({ status: 202, body: { queued: 0 } });
  });

  it('refuses bad filters and read-only keys, and queues nothing then', async () => {
    const own = await openAccount(system);
    const path = fresh('bulk-refused');
    const created = await recurrenceClient(system, own, 'sandbox').create(recurrenceBody({ webhook: receiver.url('ok', path) }));
    await receiver.waitFor(path, 1);
    const post = (query: string, key = own.sandbox) => sandbox('POST', `/v2/webhooks/deliveries/retry${query}`, undefined, key);
    const resource = `resource_id=${created.body.recurrence_id}`;
    expect(await post(`?${resource}&status=given-up`)).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'query.status must be one of pending, delivered, failed, cancelled' },
    });
    expect(await post(`?${resource}&event_type=charge.nope`)).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: `query.event_type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` },
    });
    expect(await post(`?${resource}&start=2026-11-02&end=2026-11-01`)).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'query.start must be before query.end' },
    });
    expect(await post(`?${resource}&start=yesterday&end=2026-02-30`)).toEqual({
      status: 400,
      body: {
        type: 'ValidationError',
        message:
          'query.start must be a date (YYYY-MM-DD) or a date-time with its zone (ISO 8601). query.end must be a date (YYYY-MM-DD) or a date-time with its zone (ISO 8601)',
      },
    });
    expect(await post(`?resource_id=${'x'.repeat(101)}`)).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'query.resource_id must be a string of at most 100 characters' },
    });
    const readOnly = (await admin(system, 'POST', `/admin/accounts/${own.accountId}/api-keys`, { environment: 'sandbox', read_only: true })).body.api_key;
    expect(await post(`?${resource}`, readOnly)).toEqual({ status: 403, body: { code: 2, message: 'Api Key is read-only!' } });
    await sleep(1500); // several of the dispatcher's claims (every 250 ms)
    expect(receiver.on(path)).toHaveLength(1);
  });
});

describe('test events', () => {
  const document = JSON.parse(readFileSync(join(__dirname, '../../../libs/api-client/openapi/sandbox.json'), 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components: document.components, webhooks: document.webhooks });
  const total = async (key: string, port = system.profile.sandbox) =>
    (await call(port, 'GET', '/v2/webhooks/deliveries', { key })).body.pagination.total_items as number;

  it('sends a signed sample of every event type, a payout event included, each in its documented shape and in the log', async () => {
    const path = fresh('test-event');
    const sent = await sandbox('POST', '/v2/webhooks/test-events', { event_type: 'payout.status_changed', url: receiver.url('ok', path) });
    expect(sent).toMatchObject({
      status: 202,
      body: {
        id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
        event_type: 'payout.status_changed',
        resource_type: 'payout',
        url: receiver.url('ok', path),
        payload: { type: 'payout.status_changed', data: { status: 1, transaction_id: 'test-saque-0001' } },
      },
    });
    const [received] = await receiver.waitFor(path, 1);
    expect(received.headers['webhook-id']).toBe(sent.body.id);
    expect(verified(received)).toEqual(sent.body.payload);
    const attempts = await attemptsOf(sent.body.id, (a) => a.some((x) => x.status_code === 204));
    expect(attempts[attempts.length - 1]).toMatchObject({ status_code: 204, trigger: 'schedule' });
    const log = await deliveries('?event_type=payout.status_changed&status=delivered');
    expect(log.body.deliveries.map((d: { id: string }) => d.id)).toContain(sent.body.id);

    for (const type of WEBHOOK_EVENT_TYPES) {
      const answer = await sandbox('POST', '/v2/webhooks/test-events', { event_type: type, url: receiver.url('ok', `${path}-${type}`) });
      expect({ type, status: answer.status, resource: answer.body.resource_type }).toEqual({ type, status: 202, resource: WEBHOOK_EVENTS[type].resource });
    }
    for (const type of WEBHOOK_EVENT_TYPES) {
      const [one] = await receiver.waitFor(`${path}-${type}`, 1);
      const body = verified(one);
      const validate = ajv.compile({ $ref: `doc#/components/schemas/${WEBHOOK_EVENTS[type].data}` });
      expect({ type: body.type, errors: validate(body.data) ? null : validate.errors }).toEqual({ type, errors: null });
      // The whole body as the reference describes it, `environment` included.
      const validateBody = ajv.compile({ $ref: `doc#/webhooks/${type}/post/requestBody/content/application~1json/schema` });
      expect({ type: body.type, errors: validateBody(body) ? null : validateBody.errors }).toEqual({ type, errors: null });
      expect(body.environment).toBe('sandbox');
    }
  });

  it('refuses a bad body, a URL the platform may not call and a read-only key, each leaving nothing behind; a repeat with its key replays', async () => {
    const own = await openAccount(system);
    const before = { sandbox: await total(own.sandbox), production: await total(own.production, system.profile.gateway) };
    const send = (json: unknown, key = own.sandbox, port = system.profile.sandbox) => call(port, 'POST', '/v2/webhooks/test-events', { key, json });
    const url = receiver.url('ok', fresh('refused-test-event'));
    const refused = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
    expect(await send({})).toEqual(refused('body.event_type is a required field. body.url is a required field'));
    expect(await send({ event_type: 'payout.paid', url })).toEqual(refused(`body.event_type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`));
    expect(await send({ event_type: 'charge.paid', url: 'ftp://127.0.0.1/hook' })).toEqual(
      refused('body.url must be an http(s) URL of at most 255 characters'),
    );
    expect(await send({ event_type: 'charge.paid', url: `http://127.0.0.1/${'x'.repeat(250)}` })).toEqual(
      refused('body.url must be an http(s) URL of at most 255 characters'),
    );
    expect(await send({ event_type: 'charge.paid', url, resource_id: 'r1' })).toEqual(refused('`resource_id` is not a field of this endpoint'));
    expect(await send({ event_type: 'charge.paid', url: 'https://169.254.169.254/latest' })).toEqual(
      refused('body.url is refused: the webhook host resolves to a private or reserved address'),
    );
    expect(await send({ event_type: 'charge.paid', url: `http://127.0.0.1:${system.profile.sandbox}/hook` })).toEqual(
      refused(`body.url is refused: the webhook host resolves to loopback on port ${system.profile.sandbox}, one of the platform's own`),
    );
    // Loopback is a sandbox webhook's only (WEBHOOK_ALLOW_LOOPBACK=sandbox): production wants https.
    expect(await send({ event_type: 'payout.created', url }, own.production, system.profile.gateway)).toEqual(
      refused('body.url is refused: the webhook URL must use https (got http)'),
    );
    const readOnly = (await admin(system, 'POST', `/admin/accounts/${own.accountId}/api-keys`, { environment: 'sandbox', read_only: true })).body.api_key;
    expect(await send({ event_type: 'charge.paid', url }, readOnly)).toEqual({ status: 403, body: { code: 2, message: 'Api Key is read-only!' } });
    expect({ sandbox: await total(own.sandbox), production: await total(own.production, system.profile.gateway) }).toEqual(before);
    expect(receiver.on(new URL(url).pathname)).toEqual([]);

    const key = fresh('test-event-key');
    const first = await postWithKey('/v2/webhooks/test-events', { event_type: 'charge.paid', url }, key, own.sandbox);
    expect(first).toMatchObject({ status: 202, replayed: null, body: { event_type: 'charge.paid', resource_type: 'charge' } });
    expect(await postWithKey('/v2/webhooks/test-events', { event_type: 'charge.paid', url }, key, own.sandbox)).toMatchObject({
      status: 202,
      replayed: 'true',
      body: { id: first.body.id },
    });
    expect(await total(own.sandbox)).toBe(before.sandbox + 1);
  });
});

describe('a signing secret per environment', () => {
  it('a webhook the sandbox sends to any URL is refused by a receiver checking the production secret, verifies with the sandbox secret and says sandbox', async () => {
    // Someone with a sandbox key points a sandbox Pix charge at a production receiver (here on loopback), with the
    // transaction_id of a pending production order, and pays it through the sandbox.
    const account = await openAccount(system);
    const secrets = (await admin(system, 'GET', `/admin/accounts/${account.accountId}`)).body as { webhook_secret: string; sandbox_webhook_secret: string };
    expect(secrets.sandbox_webhook_secret).toMatch(/^whsec_/);
    expect(secrets.sandbox_webhook_secret).not.toBe(secrets.webhook_secret);
    const path = fresh('forged');
    const charge = await call(system.profile.sandbox, 'POST', '/v2/pix', {
      key: account.sandbox,
      json: {
        transaction_id: fresh('pedido-producao'),
        amount: 250,
        payer: { document_number: freshCpf(), name: 'Maria Silva' },
        webhook: receiver.url('ok', path),
      },
    });
    expect(charge.status).toBe(201);
    expect((await call(system.profile.sandbox, 'POST', `/v2/sandbox/pix/${charge.body.id}/pay`, { key: account.sandbox })).status).toBe(200);
    const paid = (await receiver.waitFor(path, 2)).find((r) => verified(r, secrets.sandbox_webhook_secret).type === 'pix_charge.paid');
    expect(paid).toBeDefined();
    const request = paid as Received;

    /** A merchant's production receiver: the production secret's signature, then the body's environment. */
    const productionReceiver = (r: Received): string => {
      try {
        const body = new Webhook(secrets.webhook_secret).verify(r.body, r.headers) as { environment?: string };
        return body.environment === 'production' ? 'accepted' : 'refused: not production';
      } catch {
        return 'refused: signature';
      }
    };
    expect(productionReceiver(request)).toBe('refused: signature');
    expect(request.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verified(request, secrets.sandbox_webhook_secret)).toMatchObject({ type: 'pix_charge.paid', environment: 'sandbox', data: { id: charge.body.id } });
  });

  it('a rotation changes its environment’s secret only; for 24 hours both sign: each verifies on its own', async () => {
    const account = await openAccount(system);
    const before = (await admin(system, 'GET', `/admin/accounts/${account.accountId}`)).body as { webhook_secret: string; sandbox_webhook_secret: string };
    expect(await admin(system, 'POST', `/admin/accounts/${account.accountId}/webhook-secret`)).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'query.environment must be one of production or sandbox' },
    });
    const rotated = await admin(system, 'POST', `/admin/accounts/${account.accountId}/webhook-secret?environment=sandbox`);
    expect(rotated).toMatchObject({
      status: 200,
      body: { account_id: account.accountId, environment: 'sandbox', previous_secret_valid_until: expect.any(String) },
    });
    expect(rotated.body.webhook_secret).not.toBe(before.sandbox_webhook_secret);
    const after = (await admin(system, 'GET', `/admin/accounts/${account.accountId}`)).body;
    expect(after).toMatchObject({ webhook_secret: before.webhook_secret, sandbox_webhook_secret: rotated.body.webhook_secret });
    // The dispatcher caches an account's secrets for 5 s.
    await sleep(5500);
    const path = fresh('rotated');
    await recurrenceClient(system, account, 'sandbox').create(recurrenceBody({ webhook: receiver.url('ok', path) }));
    const [signed] = await receiver.waitFor(path, 1);
    expect(signed.headers['webhook-signature'].split(' ')).toHaveLength(2);
    verified(signed, rotated.body.webhook_secret);
    verified(signed, before.sandbox_webhook_secret);
    expect(() => verified(signed, before.webhook_secret)).toThrow();
  });
});

describe('the operator', () => {
  it("lists and retries an account's deliveries through the admin API, naming the environment", async () => {
    const path = fresh('operator');
    const created = await recurrenceClient(system, merchant, 'sandbox').create(recurrenceBody({ webhook: receiver.url('ok', path) }));
    const [first] = await receiver.waitFor(path, 1);
    const base = `/admin/accounts/${merchant.accountId}/webhook-deliveries`;
    const listed = await admin(system, 'GET', `${base}?environment=sandbox&resource_id=${created.body.recurrence_id}`);
    expect(listed).toMatchObject({ status: 200, body: { deliveries: [{ id: first.headers['webhook-id'], status: 'delivered' }] } });
    expect((await admin(system, 'GET', `${base}?environment=production&resource_id=${created.body.recurrence_id}`)).body.deliveries).toEqual([]);
    expect(await admin(system, 'GET', base)).toEqual({
      status: 400,
      body: { type: 'ValidationError', message: 'query.environment must be one of production or sandbox' },
    });
    expect((await admin(system, 'POST', `${base}/${first.headers['webhook-id']}/retry?environment=sandbox`)).status).toBe(202);
    expect((await receiver.waitFor(path, 2))[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(await admin(system, 'POST', '/admin/accounts/00000000-0000-4000-8000-000000000000/webhook-secret?environment=production')).toEqual({
      status: 404,
      body: { message: 'Account not found' },
    });
  });
});
