/** @shared-system */
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENT_TYPES } from '@pixauto/contracts';
import { Messages } from '@pixauto/errors';
import { eventually } from '@pixauto/testing';
import { admin, Merchant } from './support/fixtures';
import { Answer, call } from './support/http';
import { openAccount, recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';
import { Received, WebhookReceiver } from './support/webhook-receiver';

// Webhook endpoints (docs/api/webhooks.md#webhook-endpoints): an account's URLs per environment that receive every
// event of the types they take, beside each resource's own webhook, each signed with its own secret (both during a
// rotation's overlap), under the same SSRF rules and in the same delivery log. Loopback receivers only: a production
// endpoint is proven by its refused attempts (production never calls loopback), never by a connection.

const W = Messages.webhooks;
const ENDPOINTS = '/v2/webhooks/endpoints';

let system: RunningSystem;
let receiver: WebhookReceiver;
let merchant: Merchant;
/** The account's sandbox signing secret: what a resource's own webhook is signed with, never an endpoint's delivery. */
let accountSecret: string;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  await receiver.start();
  system = sharedSystem();
  merchant = await openAccount(system);
  accountSecret = (await admin(system, 'GET', `/admin/accounts/${merchant.accountId}`)).body.sandbox_webhook_secret;
}, 300_000);
afterAll(async () => {
  await receiver?.stop();
});

let names = 0;
const fresh = (label: string) => `${label}-${process.pid}-${++names}`;
const sandbox = (method: string, path: string, json?: unknown, key = merchant.sandbox) => call(system.profile.sandbox, method, path, { key, json });
const production = (method: string, path: string, json?: unknown, key = merchant.production) => call(system.profile.gateway, method, path, { key, json });
const invalid = (message: string) => ({ status: 400, body: { type: 'ValidationError', message } });
const NOT_FOUND = { status: 404, body: { message: W.endpointNotFound } };
const READ_ONLY = { status: 403, body: { code: 2, message: Messages.auth.apiKeyReadOnly } };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Creates a sandbox endpoint and answers it with its secret. */
async function endpoint(json: Record<string, unknown>, post = sandbox): Promise<{ endpoint_id: string; secret: string; url: string }> {
  const created = await post('POST', ENDPOINTS, json);
  expect(created.status).toBe(201);
  return created.body;
}

/** Verifies a request's signature with one secret, as a merchant's receiver does. */
const verifies = (received: Received, secret: string): boolean => {
  try {
    new Webhook(secret).verify(received.body, received.headers);
    return true;
  } catch {
    return false;
  }
};

const deliveriesOf = async (query: string, call_ = sandbox): Promise<Answer> => call_('GET', `/v2/webhooks/deliveries${query}`);

describe('managing endpoints', () => {
  it('creates, lists, reads, changes and deletes one, in the contract shape, a sandbox key seeing only sandbox ones', async () => {
    const url = receiver.url('ok', fresh('crud'));
    const created = await sandbox('POST', ENDPOINTS, {
      url,
      event_types: ['pix_charge.paid', 'recurrence.approved', 'pix_charge.paid'],
      description: 'Accounting',
    });
    expect(created).toEqual({
      status: 201,
      body: {
        endpoint_id: expect.stringMatching(UUID),
        url,
        event_types: ['pix_charge.paid', 'recurrence.approved'],
        description: 'Accounting',
        enabled: true,
        environment: 'sandbox',
        created_at: expect.stringMatching(ISO),
        updated_at: created.body.created_at,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      },
    });
    const { secret, ...shown } = created.body;
    const id = shown.endpoint_id;
    expect(await sandbox('GET', `${ENDPOINTS}/${id}`)).toEqual({ status: 200, body: shown });
    expect((await sandbox('GET', ENDPOINTS)).body.endpoints).toContainEqual(shown);
    expect((await production('GET', ENDPOINTS)).body).toEqual({ endpoints: [] });
    expect(await production('GET', `${ENDPOINTS}/${id}`)).toEqual(NOT_FOUND);
    expect(await sandbox('GET', `${ENDPOINTS}/${id}/secret`)).toEqual({ status: 200, body: { secret, previous_secret_valid_until: null } });

    const changed = await sandbox('PATCH', `${ENDPOINTS}/${id}`, { event_types: [], description: null, enabled: false });
    expect(changed).toEqual({
      status: 200,
      body: { ...shown, event_types: [], description: null, enabled: false, updated_at: expect.stringMatching(ISO) },
    });
    expect((await sandbox('PATCH', `${ENDPOINTS}/${id}`, { url: `${url}/v2` })).body).toMatchObject({ url: `${url}/v2`, enabled: false, description: null });

    expect(await sandbox('DELETE', `${ENDPOINTS}/${id}`)).toEqual({ status: 204, body: undefined });
    expect(await sandbox('GET', `${ENDPOINTS}/${id}`)).toEqual(NOT_FOUND);
    expect(await sandbox('DELETE', `${ENDPOINTS}/${id}`)).toEqual(NOT_FOUND);
    expect((await sandbox('GET', ENDPOINTS)).body.endpoints.map((e: { endpoint_id: string }) => e.endpoint_id)).not.toContain(id);
  });

  it('refuses every invalid field with its message, and a refused request leaves nothing behind', async () => {
    const own = await openAccount(system);
    const post = (json: unknown) => call(system.profile.sandbox, 'POST', ENDPOINTS, { key: own.sandbox, json });
    const url = receiver.url('ok', fresh('invalid'));
    for (const [json, message] of [
      [{}, Messages.required('body.url')],
      [{ url: 'ftp://example.com/hook' }, W.endpointUrlInvalid],
      [{ url: `https://example.com/${'a'.repeat(240)}` }, W.endpointUrlInvalid],
      [{ url: 42 }, W.endpointUrlInvalid],
      [{ url, event_types: 'pix_charge.paid' }, W.endpointEventTypesInvalid],
      [{ url, event_types: ['pix_charge.paid', 'charge.exploded'] }, W.endpointEventTypeInvalid(WEBHOOK_EVENT_TYPES)],
      [{ url, description: 'x'.repeat(201) }, W.endpointDescriptionInvalid],
      [{ url, description: 7 }, W.endpointDescriptionInvalid],
      [{ url, enabled: 'yes' }, W.endpointEnabledInvalid],
      [{ url, secret: 'whsec_mine' }, Messages.unknownFields(['secret'])],
      [[url], Messages.request.notAnObject],
    ] as const) {
      expect(await post(json)).toEqual(invalid(message));
    }
    expect((await call(system.profile.sandbox, 'GET', ENDPOINTS, { key: own.sandbox })).body).toEqual({ endpoints: [] });

    const id = (await post({ url })).body.endpoint_id;
    const patch = (json: unknown) => call(system.profile.sandbox, 'PATCH', `${ENDPOINTS}/${id}`, { key: own.sandbox, json });
    expect(await patch({})).toEqual(invalid(W.endpointNothingToChange));
    expect(await patch({ url: null })).toEqual(invalid(W.endpointUrlInvalid));
    expect(await patch({ enabled: null })).toEqual(invalid(W.endpointEnabledInvalid));
    expect(await patch({ event_types: ['nope'] })).toEqual(invalid(W.endpointEventTypeInvalid(WEBHOOK_EVENT_TYPES)));
    expect(await patch({ environment: 'production' })).toEqual(invalid(Messages.unknownFields(['environment'])));
    const rotate = (json: unknown) => call(system.profile.sandbox, 'POST', `${ENDPOINTS}/${id}/secret/rotate`, { key: own.sandbox, json });
    for (const hours of [-1, 169, 1.5, '24']) expect(await rotate({ previous_secret_expires_in_hours: hours })).toEqual(invalid(W.endpointOverlapInvalid));
    expect(await call(system.profile.sandbox, 'POST', `${ENDPOINTS}/${id}/test`, { key: own.sandbox, json: { event_type: 'nope' } })).toEqual(
      invalid(W.testEventTypeInvalid(WEBHOOK_EVENT_TYPES)),
    );
    const [unchanged] = (await call(system.profile.sandbox, 'GET', ENDPOINTS, { key: own.sandbox })).body.endpoints;
    expect(unchanged).toMatchObject({ url, event_types: [], enabled: true, description: null });
    expect(unchanged.updated_at).toBe(unchanged.created_at);
    const { secret } = (await call(system.profile.sandbox, 'GET', `${ENDPOINTS}/${id}/secret`, { key: own.sandbox })).body;
    expect((await call(system.profile.sandbox, 'GET', `${ENDPOINTS}/${id}/secret`, { key: own.sandbox })).body).toEqual({
      secret,
      previous_secret_valid_until: null,
    });
    expect((await deliveriesOf(`?endpoint_id=${id}`, (m, p) => call(system.profile.sandbox, m, p, { key: own.sandbox }))).body.deliveries).toEqual([]);
  });

  it("answers 404 for an unknown id, a malformed one, another account's and another environment's", async () => {
    const other = await openAccount(system);
    const theirs = await endpoint({ url: receiver.url('ok', fresh('theirs')) }, (m, p, json) =>
      call(system.profile.sandbox, m, p, { key: other.sandbox, json }),
    );
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', theirs.endpoint_id]) {
      expect(await sandbox('GET', `${ENDPOINTS}/${id}`)).toEqual(NOT_FOUND);
      expect(await sandbox('PATCH', `${ENDPOINTS}/${id}`, { enabled: false })).toEqual(NOT_FOUND);
      expect(await sandbox('GET', `${ENDPOINTS}/${id}/secret`)).toEqual(NOT_FOUND);
      expect(await sandbox('POST', `${ENDPOINTS}/${id}/secret/rotate`, {})).toEqual(NOT_FOUND);
      expect(await sandbox('POST', `${ENDPOINTS}/${id}/test`, {})).toEqual(NOT_FOUND);
      expect(await sandbox('DELETE', `${ENDPOINTS}/${id}`)).toEqual(NOT_FOUND);
    }
    expect(await call(system.profile.gateway, 'GET', `${ENDPOINTS}/${theirs.endpoint_id}`, { key: other.production })).toEqual(NOT_FOUND);
    expect((await call(system.profile.sandbox, 'GET', `${ENDPOINTS}/${theirs.endpoint_id}`, { key: other.sandbox })).status).toBe(200);
  });

  it('lets a read-only key list and read, and refuses it every change, the secret and a test event', async () => {
    const id = (await endpoint({ url: receiver.url('ok', fresh('read-only')) })).endpoint_id;
    const readOnly = (await admin(system, 'POST', `/admin/accounts/${merchant.accountId}/api-keys`, { environment: 'sandbox', read_only: true })).body.api_key;
    expect((await sandbox('GET', ENDPOINTS, undefined, readOnly)).status).toBe(200);
    expect((await sandbox('GET', `${ENDPOINTS}/${id}`, undefined, readOnly)).status).toBe(200);
    expect(await sandbox('POST', ENDPOINTS, { url: receiver.url('ok', 'x') }, readOnly)).toEqual(READ_ONLY);
    expect(await sandbox('PATCH', `${ENDPOINTS}/${id}`, { enabled: false }, readOnly)).toEqual(READ_ONLY);
    expect(await sandbox('DELETE', `${ENDPOINTS}/${id}`, undefined, readOnly)).toEqual(READ_ONLY);
    expect(await sandbox('GET', `${ENDPOINTS}/${id}/secret`, undefined, readOnly)).toEqual(READ_ONLY);
    expect(await sandbox('POST', `${ENDPOINTS}/${id}/secret/rotate`, {}, readOnly)).toEqual(READ_ONLY);
    expect(await sandbox('POST', `${ENDPOINTS}/${id}/test`, {}, readOnly)).toEqual(READ_ONLY);
    expect((await sandbox('GET', `${ENDPOINTS}/${id}`)).body.enabled).toBe(true);
    expect((await sandbox('DELETE', `${ENDPOINTS}/${id}`)).status).toBe(204);
  });

  it('refuses the 17th endpoint of an environment with 422, and takes an Idempotency-Key', async () => {
    const own = await openAccount(system);
    const post = (json: unknown, idempotencyKey?: string) =>
      fetch(`http://127.0.0.1:${system.profile.gateway}${ENDPOINTS}`, {
        method: 'POST',
        headers: { authorization: own.production, 'content-type': 'application/json', ...(idempotencyKey && { 'idempotency-key': idempotencyKey }) },
        body: JSON.stringify(json),
      });
    const first = await post({ url: 'https://hooks.example.com/0' }, 'endpoint-0');
    const replay = await post({ url: 'https://hooks.example.com/0' }, 'endpoint-0');
    expect([first.status, replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    const idOf = async (answer: Response) => ((await answer.json()) as { endpoint_id: string }).endpoint_id;
    expect(await idOf(replay)).toBe(await idOf(first));
    for (let i = 1; i < 16; i++) expect((await post({ url: `https://hooks.example.com/${i}` })).status).toBe(201);
    const refused = await post({ url: 'https://hooks.example.com/16' });
    expect([refused.status, await refused.json()]).toEqual([422, { type: 'ValidationError', message: W.endpointLimit(16) }]);
    expect((await call(system.profile.gateway, 'GET', ENDPOINTS, { key: own.production })).body.endpoints).toHaveLength(16);
    // The other environment has its own 16.
    expect((await call(system.profile.sandbox, 'POST', ENDPOINTS, { key: own.sandbox, json: { url: receiver.url('ok', 'other-env') } })).status).toBe(201);
  });

  it('records creation, change, deletion, and the secret revealed and rotated, in the audit log, never the secret', async () => {
    const own = await openAccount(system);
    const as = (method: string, path: string, json?: unknown) => call(system.profile.sandbox, method, path, { key: own.sandbox, json });
    const url = receiver.url('ok', fresh('audit'));
    const { endpoint_id: id, secret } = (await as('POST', ENDPOINTS, { url, event_types: ['payout.created'] })).body;
    await as('PATCH', `${ENDPOINTS}/${id}`, { enabled: false });
    await as('PATCH', `${ENDPOINTS}/${id}`, {}); // refused: records nothing
    await as('GET', `${ENDPOINTS}/${id}/secret`);
    const rotated = (await as('POST', `${ENDPOINTS}/${id}/secret/rotate`, { previous_secret_expires_in_hours: 1 })).body;
    await as('DELETE', `${ENDPOINTS}/${id}`);
    const log = await admin(system, 'GET', `/admin/accounts/${own.accountId}/audit-log`);
    const entries = log.body.entries.filter((e: { action: string }) => e.action.startsWith('webhook_endpoint.'));
    expect(
      entries.map((e: { action: string; object: string; detail: unknown; environment: string; actor_type: string }) => [
        e.action,
        e.object,
        e.detail,
        e.environment,
        e.actor_type,
      ]),
    ).toEqual([
      ['webhook_endpoint.deleted', id, {}, 'sandbox', 'api_key'],
      ['webhook_endpoint.secret_rotated', id, { previous_secret_valid_until: rotated.previous_secret_valid_until }, 'sandbox', 'api_key'],
      ['webhook_endpoint.secret_revealed', id, {}, 'sandbox', 'api_key'],
      ['webhook_endpoint.updated', id, { enabled: false }, 'sandbox', 'api_key'],
      ['webhook_endpoint.created', id, { url, event_types: ['payout.created'], enabled: true }, 'sandbox', 'api_key'],
    ]);
    expect(JSON.stringify(log.body)).not.toContain(secret.slice(6));
    expect(JSON.stringify(log.body)).not.toContain(rotated.secret.slice(6));
  });
});

describe('what endpoints receive', () => {
  it("fans each event out to every enabled endpoint that takes its type, beside the resource's own webhook, each signed with its own secret", async () => {
    const all = await endpoint({ url: receiver.url('ok', fresh('all')) });
    const approved = await endpoint({ url: receiver.url('ok', fresh('approved')), event_types: ['recurrence.approved'] });
    const disabled = await endpoint({ url: receiver.url('ok', fresh('disabled')), enabled: false });
    const ownPath = fresh('own');
    const recurrences = recurrenceClient(system, merchant, 'sandbox');
    const created = await recurrences.create(recurrenceBody({ webhook: receiver.url('ok', ownPath) }));
    expect(created.status).toBe(201);
    expect((await recurrences.authorize(created.body.recurrence_id)).status).toBe(200);

    const own = await receiver.waitFor(ownPath, 2);
    const toAll = await receiver.waitFor(new URL(all.url).pathname, 2);
    const toApproved = await receiver.waitFor(new URL(approved.url).pathname, 1);
    expect(own.map((r) => r.json.type)).toEqual(['recurrence.created', 'recurrence.approved']);
    expect(toAll.map((r) => r.json.type)).toEqual(['recurrence.created', 'recurrence.approved']);
    expect(toApproved.map((r) => r.json.type)).toEqual(['recurrence.approved']);
    // The same body as the resource's own webhook, `environment` included; each URL its own webhook-id and signature.
    expect(toAll.map((r) => r.body)).toEqual(own.map((r) => r.body));
    expect(toApproved[0].body).toBe(own[1].body);
    expect(toAll[0].json.environment).toBe('sandbox');
    expect(new Set([...own, ...toAll, ...toApproved].map((r) => r.headers['webhook-id'])).size).toBe(5);
    expect(own.every((r) => verifies(r, accountSecret))).toBe(true);
    expect(toAll.every((r) => verifies(r, all.secret) && !verifies(r, accountSecret) && !verifies(r, approved.secret))).toBe(true);
    expect(verifies(toApproved[0], approved.secret)).toBe(true);

    // The delivery log names each endpoint, and filters by it.
    const log = (await deliveriesOf(`?resource_id=${created.body.recurrence_id}`)).body.deliveries;
    expect(log.map((d: { endpoint_id: string | null; event_type: string }) => [d.endpoint_id, d.event_type]).sort()).toEqual(
      [
        [null, 'recurrence.approved'],
        [null, 'recurrence.created'],
        [all.endpoint_id, 'recurrence.approved'],
        [all.endpoint_id, 'recurrence.created'],
        [approved.endpoint_id, 'recurrence.approved'],
      ].sort(),
    );
    const filtered = (await deliveriesOf(`?endpoint_id=${approved.endpoint_id}`)).body.deliveries;
    expect(filtered).toEqual([expect.objectContaining({ id: toApproved[0].headers['webhook-id'], endpoint_id: approved.endpoint_id, url: approved.url })]);
    expect((await sandbox('GET', `/v2/webhooks/deliveries/${filtered[0].id}`)).body).toMatchObject({ endpoint_id: approved.endpoint_id, status: 'delivered' });
    expect(await deliveriesOf('?endpoint_id=nope')).toEqual(invalid(W.endpointIdInvalid));

    // The disabled endpoint: no delivery made, nothing received, while the others got theirs.
    expect((await deliveriesOf(`?endpoint_id=${disabled.endpoint_id}`)).body.deliveries).toEqual([]);
    expect(receiver.on(new URL(disabled.url).pathname)).toEqual([]);
    for (const { endpoint_id } of [all, approved, disabled]) await sandbox('DELETE', `${ENDPOINTS}/${endpoint_id}`);
  });

  it('signs with both secrets during a rotation overlap, each verifying the same delivery, then with the new one alone', async () => {
    const path = fresh('rotation');
    const hook = await endpoint({ url: receiver.url('ok', path) });
    const rotated = await sandbox('POST', `${ENDPOINTS}/${hook.endpoint_id}/secret/rotate`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const until = new Date(rotated.body.previous_secret_valid_until).getTime();
    expect(Math.abs(until - Date.now() - 24 * 3_600_000)).toBeLessThan(60_000);
    expect((await sandbox('GET', `${ENDPOINTS}/${hook.endpoint_id}/secret`)).body).toEqual(rotated.body);

    const test = await sandbox('POST', `${ENDPOINTS}/${hook.endpoint_id}/test`, { event_type: 'pix_charge.paid' });
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({ endpoint_id: hook.endpoint_id, event_type: 'pix_charge.paid', url: hook.url });
    const [during] = await receiver.waitFor(path, 1);
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifies(during, rotated.body.secret)).toBe(true);
    expect(verifies(during, hook.secret)).toBe(true);
    expect(verifies(during, accountSecret)).toBe(false);

    // Ending the overlap at once: the previous secret signs nothing more.
    const ended = await sandbox('POST', `${ENDPOINTS}/${hook.endpoint_id}/secret/rotate`, { previous_secret_expires_in_hours: 0 });
    expect(ended.body.previous_secret_valid_until).toBeNull();
    await sandbox('POST', `${ENDPOINTS}/${hook.endpoint_id}/test`, {});
    const after = (await receiver.waitFor(path, 2))[1];
    expect(after.json.type).toBe('recurrence.created');
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifies(after, ended.body.secret)).toBe(true);
    expect(verifies(after, rotated.body.secret)).toBe(false);
    await sandbox('DELETE', `${ENDPOINTS}/${hook.endpoint_id}`);
  });

  it('keeps environments apart: a sandbox endpoint gets no production event, a production endpoint no sandbox event', async () => {
    const own = await openAccount(system);
    const sandboxPath = fresh('sandbox-only');
    const inSandbox = await endpoint({ url: receiver.url('ok', sandboxPath) }, (m, p, json) => call(system.profile.sandbox, m, p, { key: own.sandbox, json }));
    // Production never calls loopback nor http: its endpoint's deliveries are refused attempts, recorded, never sent.
    const inProduction = await endpoint({ url: receiver.url('ok', fresh('production-only')) }, (m, p, json) =>
      call(system.profile.gateway, m, p, { key: own.production, json }),
    );
    const productionLog = (query: string) => call(system.profile.gateway, 'GET', `/v2/webhooks/deliveries${query}`, { key: own.production });
    const sandboxLog = (query: string) => call(system.profile.sandbox, 'GET', `/v2/webhooks/deliveries${query}`, { key: own.sandbox });

    const inProd = await recurrenceClient(system, own, 'production').create(recurrenceBody());
    expect(inProd.status).toBe(201);
    const refused = await eventually(
      () => productionLog(`?endpoint_id=${inProduction.endpoint_id}`),
      (a) => a.body.deliveries?.[0]?.attempt_count >= 1,
      WITHIN_SECONDS,
    );
    expect(refused.body.deliveries).toEqual([
      expect.objectContaining({
        resource_id: inProd.body.recurrence_id,
        endpoint_id: inProduction.endpoint_id,
        last_error: 'the webhook URL must use https (got http)',
      }),
    ]);
    const inSbx = await recurrenceClient(system, own, 'sandbox').create(recurrenceBody());
    expect(inSbx.status).toBe(201);
    const [received] = await receiver.waitFor(sandboxPath, 1);
    expect(received.json).toMatchObject({ environment: 'sandbox', data: { recurrence_id: inSbx.body.recurrence_id } });
    expect((await sandboxLog(`?resource_id=${inProd.body.recurrence_id}`)).body.deliveries).toEqual([]);
    expect((await productionLog(`?resource_id=${inSbx.body.recurrence_id}`)).body.deliveries).toEqual([]);
    expect((await productionLog(`?endpoint_id=${inProduction.endpoint_id}`)).body.deliveries).toHaveLength(1);
    expect(receiver.on(sandboxPath)).toHaveLength(1);
    expect((await sandboxLog(`?endpoint_id=${inSandbox.endpoint_id}`)).body.deliveries.map((d: { resource_id: string }) => d.resource_id)).toEqual([
      inSbx.body.recurrence_id,
    ]);
  });

  it('refuses an address the platform may not call, by the reason recorded on the attempt, no connection made', async () => {
    const privateUrl = 'http://10.20.30.40:9/hook';
    const hook = await endpoint({ url: privateUrl });
    expect(await sandbox('POST', `${ENDPOINTS}/${hook.endpoint_id}/test`, {})).toEqual(
      invalid(W.endpointUrlRefused('the webhook host resolves to a private or reserved address')),
    );
    expect((await deliveriesOf(`?endpoint_id=${hook.endpoint_id}`)).body.deliveries).toEqual([]);
    const created = await recurrenceClient(system, merchant, 'sandbox').create(recurrenceBody());
    const listed = await eventually(
      () => deliveriesOf(`?endpoint_id=${hook.endpoint_id}`),
      (a) => a.body.deliveries?.[0]?.attempt_count >= 1,
      WITHIN_SECONDS,
    );
    const delivery = (await sandbox('GET', `/v2/webhooks/deliveries/${listed.body.deliveries[0].id}`)).body;
    expect(delivery).toMatchObject({ resource_id: created.body.recurrence_id, endpoint_id: hook.endpoint_id, status: 'pending' });
    expect(delivery.attempts[0]).toMatchObject({ url: privateUrl, status_code: null, error: 'the webhook host resolves to a private or reserved address' });
    expect(delivery.attempts[0].error).not.toContain('10.20.30.40');

    // Deleting it ends what waits for it.
    expect((await sandbox('DELETE', `${ENDPOINTS}/${hook.endpoint_id}`)).status).toBe(204);
    expect((await sandbox('GET', `/v2/webhooks/deliveries/${delivery.id}`)).body).toMatchObject({
      status: 'cancelled',
      next_attempt_at: null,
      last_error: 'the webhook endpoint was deleted',
    });
  });

  it('cancels the pending deliveries of an endpoint disabled, and resends them when asked by filter once enabled', async () => {
    const path = fresh('disable');
    const failing = await endpoint({ url: receiver.url('fail', path) });
    await sandbox('POST', `${ENDPOINTS}/${failing.endpoint_id}/test`, {});
    await receiver.waitFor(path, 1);
    const [pending] = (
      await eventually(
        () => deliveriesOf(`?endpoint_id=${failing.endpoint_id}`),
        (a) => a.body.deliveries?.[0]?.attempt_count >= 1,
        WITHIN_SECONDS,
      )
    ).body.deliveries;
    expect(pending.status).toBe('pending');
    await sandbox('PATCH', `${ENDPOINTS}/${failing.endpoint_id}`, { enabled: false });
    expect((await sandbox('GET', `/v2/webhooks/deliveries/${pending.id}`)).body).toMatchObject({
      status: 'cancelled',
      last_error: 'the webhook endpoint was disabled',
    });
    expect(await sandbox('POST', `${ENDPOINTS}/${failing.endpoint_id}/test`, {})).toEqual(invalid(W.endpointDisabled));
    expect((await deliveriesOf(`?endpoint_id=${failing.endpoint_id}`)).body.deliveries).toHaveLength(1);
    await sandbox('PATCH', `${ENDPOINTS}/${failing.endpoint_id}`, { enabled: true, url: receiver.url('ok', path) });
    expect((await sandbox('POST', `/v2/webhooks/deliveries/retry?endpoint_id=${failing.endpoint_id}&status=cancelled`)).body).toEqual({ queued: 1 });
    const [, resent] = await receiver.waitFor(path, 2);
    expect(resent.path).toBe(`/ok/${path}`);
    expect(resent.headers['webhook-id']).toBe(pending.id);
    expect(verifies(resent, failing.secret)).toBe(true);
    await sandbox('DELETE', `${ENDPOINTS}/${failing.endpoint_id}`);
  });
});
