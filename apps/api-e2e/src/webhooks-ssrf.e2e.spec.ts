import fs from 'node:fs';
import net, { AddressInfo } from 'node:net';
import path from 'node:path';
import { eventually } from '@pixauto/testing';
import { Merchant } from './support/fixtures';
import { call } from './support/http';
import { openAccount, recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, startSystem, WITHIN_SECONDS } from './support/running-system';
import { WebhookReceiver } from './support/webhook-receiver';

// Where webhooks may go, with the dispatcher as npm start runs it (the settings system.cjs gives it in every profile):
// a sandbox receiver on loopback gets its webhooks; a link-local (cloud metadata), private or IPv4-mapped address
// and our own listeners are refused, the reason recorded on the attempt and no connection made. Nothing here leaves
// loopback: the dispatcher runs with a preload that answers the test's names with those addresses and turns any
// connection beyond loopback back to 127.0.0.1 on the same port, where a listener counts what arrives (nothing must).

type AppsOf = (profile: string, adminToken: string, secretsKeys: string, documentKey: string) => { name: string; env: Record<string, string> }[];
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is the plain-Node script npm start uses
const { appsOf } = require('../../../deploy/scripts/system.cjs') as { appsOf: AppsOf };

const PROFILE = process.env.E2E_PROFILE ?? 'e2e';
const PRELOAD = path.join(__dirname, 'support', 'loopback-only.cjs');
const DISPATCHER_LOG = path.join(__dirname, '..', '..', '..', '.data', 'logs', PROFILE, 'webhook-dispatcher.log');
const HOSTS = {
  'metadata.ssrf.test': '169.254.169.254',
  'metadata6.ssrf.test': 'fe80::a9fe:a9fe',
  'internal.ssrf.test': '10.20.30.40',
  'mapped.ssrf.test': '::ffff:169.254.169.254',
};

let system: RunningSystem;
let merchant: Merchant;
let receiver: WebhookReceiver;
/** Where a connection the guard let through would land: it must see none. */
let trap: net.Server;
let trapPort: number;
let trapped = 0;
let logStart = 0;

beforeAll(async () => {
  trap = net.createServer((socket) => {
    trapped += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as AddressInfo).port;
  receiver = new WebhookReceiver();
  await receiver.start();
  logStart = fs.existsSync(DISPATCHER_LOG) ? fs.statSync(DISPATCHER_LOG).size : 0;
  const E2E_HOSTS = Object.entries(HOSTS)
    .map(([name, address]) => `${name}=${address}`)
    .join(',');
  system = await startSystem({ appEnv: { 'webhook-dispatcher': { NODE_OPTIONS: `--require ${PRELOAD}`, E2E_HOSTS } } });
  merchant = await openAccount(system);
}, 300_000); // nine apps one after another: minutes on a busy machine
afterAll(async () => {
  await system?.stop();
  await receiver?.stop();
  await new Promise((resolve) => trap?.close(resolve));
});

let names = 0;
const fresh = (label: string) => `${label}-${process.pid}-${++names}`;

/** Creates a recurrence with this webhook and answers its `recurrence.created` delivery once it has an attempt. */
async function firstAttempt(webhook: string, environment: 'sandbox' | 'production' = 'sandbox') {
  const created = await recurrenceClient(system, merchant, environment).create(recurrenceBody({ webhook }));
  expect(created.status).toBe(201);
  const port = environment === 'sandbox' ? system.profile.sandbox : system.profile.gateway;
  const key = environment === 'sandbox' ? merchant.sandbox : merchant.production;
  const listed = await eventually(
    () => call(port, 'GET', `/v2/webhooks/deliveries?resource_id=${created.body.recurrence_id}`, { key }),
    (answer) => answer.body.deliveries?.[0]?.attempt_count >= 1,
    WITHIN_SECONDS,
  );
  const delivery = await call(port, 'GET', `/v2/webhooks/deliveries/${listed.body.deliveries[0].id}`, { key });
  return delivery.body.attempts[0] as { url: string; status_code: number | null; error: string | null };
}

/** The reason says what kind of address, never which: an internal name's address is not the merchant's to read. */
const REFUSED = 'the webhook host resolves to a private or reserved address';
const OWN_PORT = (port: number) => new RegExp(`^the webhook host resolves to loopback on port ${port}, one of the platform's own$`);

describe('webhooks reach loopback receivers and nothing else of ours', () => {
  it('the dispatcher runs with the settings npm start gives it: loopback for the sandbox, every platform port reserved', () => {
    const dispatcherOf = (profile: string) => appsOf(profile, 'token', 'keys', 'key').find((app) => app.name === 'webhook-dispatcher')?.env ?? {};
    const dev = dispatcherOf('dev');
    const here = dispatcherOf(PROFILE);
    expect(dev.WEBHOOK_ALLOW_LOOPBACK).toBe('sandbox');
    expect(here.WEBHOOK_ALLOW_LOOPBACK).toBe(dev.WEBHOOK_ALLOW_LOOPBACK);
    expect(here.WEBHOOK_RESERVED_PORTS).toBe(dev.WEBHOOK_RESERVED_PORTS);
    expect(Object.keys(here).sort()).toEqual(Object.keys(dev).sort());
    expect(dev).not.toHaveProperty('WEBHOOK_ALLOW_PRIVATE_NETWORKS');
    const reserved = dev.WEBHOOK_RESERVED_PORTS.split(',').map(Number);
    const p = system.profile;
    // 4025 and 3051: a second limits-service and a second gateway process (npm start -- --replicas 2).
    for (const port of [
      3000,
      3001,
      3002,
      3050,
      3051,
      4010,
      4025,
      4059,
      p.gateway,
      p.sandbox,
      p.admin,
      p.gatewayOps,
      p.bank,
      p.limits,
      p.webhooksOps,
      p.payoutQueryHttp,
    ])
      expect(reserved).toContain(port);
    expect(reserved).not.toContain(receiver.port);
  });

  it('a sandbox webhook on a loopback receiver is delivered', async () => {
    const name = fresh('loopback');
    const attempt = await firstAttempt(receiver.url('ok', name));
    expect(attempt).toMatchObject({ status_code: 204, error: null });
    expect((await receiver.waitFor(name, 1))[0].json.type).toBe('recurrence.created');
  });

  it.each([
    ['link-local (cloud metadata), by name', () => `http://metadata.ssrf.test:${trapPort}/latest/meta-data/`, '169.254.169.254'],
    ['link-local IPv6, by name', () => `https://metadata6.ssrf.test:${trapPort}/hook`, 'fe80::a9fe:a9fe'],
    ['private, by name', () => `https://internal.ssrf.test:${trapPort}/hook`, '10.20.30.40'],
    ['IPv4-mapped link-local, by name', () => `http://mapped.ssrf.test:${trapPort}/hook`, '::ffff:169.254.169.254'],
    ['link-local, written in the URL', () => `http://169.254.169.254:${trapPort}/latest/meta-data/`, '169.254.169.254'],
    ['private, written in the URL', () => `http://10.20.30.40:${trapPort}/hook`, '10.20.30.40'],
    // The URL's own parser writes it ::ffff:a9fe:a9fe.
    ['IPv4-mapped link-local, written in the URL', () => `http://[::ffff:169.254.169.254]:${trapPort}/hook`, '::ffff:a9fe:a9fe'],
    ['"this host" 0.0.0.0', () => `http://0.0.0.0:${trapPort}/hook`, '0.0.0.0'],
  ])('refuses a sandbox webhook to a %s address: reason recorded without the address, no connection', async (_, url, address) => {
    const attempt = await firstAttempt(url());
    expect(attempt).toMatchObject({ url: url(), status_code: null, error: REFUSED });
    expect(attempt.error).not.toContain(address);
    expect(trapped).toBe(0);
  });

  it.each([
    ['the admin API', () => `http://127.0.0.1:${system.profile.admin}/admin/accounts`, () => system.profile.admin],
    ['the admin API, by name', () => `http://localhost:${system.profile.admin}/admin/accounts`, () => system.profile.admin],
    ['the production API', () => `http://127.0.0.1:${system.profile.gateway}/v2/automatic-pix/recurrences`, () => system.profile.gateway],
    ["the dispatcher's own ops listener", () => `http://127.0.0.1:${system.profile.webhooksOps}/health/ready`, () => system.profile.webhooksOps],
    ['the bank simulator', () => `http://127.0.0.1:${system.profile.bank}/sim`, () => system.profile.bank],
  ])('refuses a sandbox webhook to %s on loopback', async (_, url, port) => {
    const attempt = await firstAttempt(url());
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(OWN_PORT(port()));
  });

  it('refuses a production webhook to loopback, over http and https alike', async () => {
    const name = fresh('production');
    expect(await firstAttempt(receiver.url('ok', name), 'production')).toMatchObject({ status_code: null, error: 'the webhook URL must use https (got http)' });
    expect(await firstAttempt(`https://127.0.0.1:${receiver.port}/ok/${name}`, 'production')).toMatchObject({ status_code: null, error: REFUSED });
    expect(await firstAttempt(`https://metadata.ssrf.test:${trapPort}/hook`, 'production')).toMatchObject({
      status_code: null,
      error: REFUSED,
    });
    expect(receiver.on(name)).toEqual([]);
  });

  it('made no connection beyond loopback at all', async () => {
    // A delivery after all of them reaches its receiver: every connection the earlier ones caused has been made by then.
    const name = fresh('last');
    expect(await firstAttempt(receiver.url('ok', name))).toMatchObject({ status_code: 204 });
    await receiver.waitFor(name, 1);
    expect(trapped).toBe(0);
    const log = fs.readFileSync(DISPATCHER_LOG).subarray(logStart).toString('utf8');
    expect(log).toContain('delivering webhooks (loopback over http allowed for sandbox');
    expect(log).not.toContain('loopback-only: turned back');
  });
});
