import { LookupAddress } from 'node:dns';
import { createServer, Server } from 'node:http';
import net, { AddressInfo, isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { STRICT_POLICY, targetPolicyFrom } from './address-guard';
import { Resolver, signatureHeaders, WebhookSender } from './webhook-sender';

// The sender against a real HTTP server on loopback: signed requests, no redirects followed, a bounded wait, and
// what the target policy refuses refused before any connection. Names are answered by the test's resolver, and the
// socket layer sends whatever is not loopback to the loopback server instead (and notes it): a guard that let a
// link-local or private address through would show as a request the server saw, and no packet leaves this host.

let server: Server;
let port: number;
let connections = 0;
const seen: { url: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
/** Connections the socket layer turned back to loopback: addresses the guard let through that it should not have. */
const escaped: string[] = [];

const NAMES: Record<string, string[]> = {
  'receiver.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'metadata6.test': ['fe80::a9fe:a9fe'],
  'internal.test': ['10.1.2.3'],
  'mapped.test': ['::ffff:169.254.169.254'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'rebind.test': ['169.254.169.254', '127.0.0.1'], // one answer inside, one allowed in development
};
const resolve: Resolver = async (hostname) => {
  const addresses = NAMES[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address): LookupAddress => ({ address, family: isIP(address) }));
};

const isLoopback = (address: string) => /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);
const connect = net.Socket.prototype.connect;
type ConnectOptions = { host?: string; lookup?: (host: string, options: object, callback: (...args: unknown[]) => void) => void };

/** The socket layer of this test: nothing beyond loopback, whatever the code under test asks for. */
function loopbackOnly(this: net.Socket, ...args: unknown[]): net.Socket {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first && typeof first === 'object') {
    const options = first as ConnectOptions;
    if (options.host && isIP(options.host) && !isLoopback(options.host)) {
      escaped.push(options.host);
      options.host = '127.0.0.1';
    }
    const lookup = options.lookup;
    if (lookup) {
      options.lookup = (host, lookupOptions, callback) =>
        lookup(host, lookupOptions, (error, address, family) => {
          if (error) return callback(error, address, family);
          const list = Array.isArray(address) ? (address as LookupAddress[]) : [{ address: address as string, family: family as number }];
          for (const entry of list.filter((a) => !isLoopback(a.address))) escaped.push(entry.address);
          const safe = list.map((a) => (isLoopback(a.address) ? a : { address: '127.0.0.1', family: 4 }));
          return Array.isArray(address) ? callback(null, safe) : callback(null, safe[0].address, safe[0].family);
        });
    }
  }
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
}

beforeAll(async () => {
  net.Socket.prototype.connect = loopbackOnly as typeof connect;
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/redirect') response.writeHead(302, { location: '/ok' }).end();
      else if (request.url === '/hang')
        return; // never answers
      else if (request.url === '/big') response.writeHead(500).end('x'.repeat(100_000));
      else response.writeHead(200).end('thanks');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  net.Socket.prototype.connect = connect;
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
});
beforeEach(() => {
  seen.length = 0;
  escaped.length = 0;
  connections = 0;
});
afterEach(() => expect(escaped).toEqual([]));

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = JSON.stringify({ type: 'charge.paid', timestamp: '2026-11-25T12:00:00.000Z', data: { charge_id: 'c1' } });

describe('WebhookSender', () => {
  // As npm start runs it: loopback for the sandbox; the production environment as every deployment runs it.
  const local = new WebhookSender(targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'sandbox' }), { timeoutMs: 1000, resolve });
  const strict = new WebhookSender(STRICT_POLICY, { timeoutMs: 1000, resolve });
  afterAll(async () => {
    await local.close();
    await strict.close();
  });

  it('POSTs the body with Standard Webhooks headers that verify', async () => {
    const headers = signatureHeaders('msg_1', new Date(), body, [SECRET]);
    const sent = await local.send(`http://127.0.0.1:${port}/ok`, 'sandbox', headers, body);
    expect(sent).toMatchObject({ result: { kind: 'answered', statusCode: 200 }, responseBody: 'thanks' });
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(new Webhook(SECRET).verify(seen[0].body, seen[0].headers as Record<string, string>)).toEqual(JSON.parse(body));
  });

  it('signs with every secret in effect, each verifying on its own', () => {
    const other = 'whsec_dGhlIG90aGVyIHNlY3JldCwgMzIgYnl0ZXMgbG9uZyE=';
    const headers = signatureHeaders('msg_2', new Date(), body, [SECRET, other]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(other).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('does not follow a redirect', async () => {
    const sent = await local.send(`http://127.0.0.1:${port}/redirect`, 'sandbox', {}, body);
    expect(sent.result).toEqual({ kind: 'answered', statusCode: 302 });
    expect(seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it('counts an endpoint that does not answer in time as down', async () => {
    const sent = await local.send(`http://127.0.0.1:${port}/hang`, 'sandbox', {}, body);
    expect(sent.result).toEqual({ kind: 'down', error: 'no answer within 1000 ms' });
    expect(sent.latencyMs).toBeGreaterThanOrEqual(990);
  });

  it('keeps only the first kilobyte of an answer', async () => {
    const sent = await local.send(`http://127.0.0.1:${port}/big`, 'sandbox', {}, body);
    expect(sent.responseBody).toHaveLength(1024);
  });

  it('refuses loopback, by IP or by name, and plain http, without making a request', async () => {
    expect((await strict.send(`https://127.0.0.1:${port}/ok`, 'sandbox', {}, body)).result).toEqual({
      kind: 'refused',
      error: 'the webhook host resolves to a private or reserved address',
    });
    expect((await strict.send(`https://[::ffff:127.0.0.1]:${port}/ok`, 'sandbox', {}, body)).result.kind).toBe('refused');
    const byName = await strict.send(`https://receiver.test:${port}/ok`, 'sandbox', {}, body);
    expect(byName.result).toEqual({ kind: 'refused', error: 'the webhook host resolves to a private or reserved address' });
    expect((await strict.send(`http://merchant.example/hook`, 'sandbox', {}, body)).result).toEqual({
      kind: 'refused',
      error: 'the webhook URL must use https (got http)',
    });
    expect(seen).toEqual([]);
    expect(connections).toBe(0);
  });

  it('reaches a receiver on loopback by name, for the sandbox only', async () => {
    expect((await local.send(`http://receiver.test:${port}/ok`, 'sandbox', {}, body)).result).toEqual({ kind: 'answered', statusCode: 200 });
    expect((await local.send(`http://receiver.test:${port}/ok`, 'production', {}, body)).result).toEqual({
      kind: 'refused',
      error: 'the webhook URL must use https (got http)',
    });
    expect((await local.send(`https://receiver.test:${port}/ok`, 'production', {}, body)).result).toEqual({
      kind: 'refused',
      error: 'the webhook host resolves to a private or reserved address',
    });
    expect(seen.map((s) => s.url)).toEqual(['/ok']);
  });

  it('says before any request why a URL would be refused: its scheme, an IP in it, or any address its host resolves to', async () => {
    const privateAddress = 'the webhook host resolves to a private or reserved address';
    expect(await local.refusal(`http://receiver.test:${port}/ok`, 'sandbox')).toBeUndefined();
    expect(await local.refusal(`http://receiver.test:${port}/ok`, 'production')).toBe('the webhook URL must use https (got http)');
    expect(await strict.refusal(`https://127.0.0.1:${port}/ok`, 'sandbox')).toBe(privateAddress);
    expect(await local.refusal('https://[fe80::a9fe:a9fe]/latest', 'sandbox')).toBe(privateAddress);
    expect(await local.refusal('https://rebind.test/hook', 'sandbox')).toBe(privateAddress);
    expect(await strict.refusal('https://receiver.test/hook', 'production')).toBe(privateAddress);
    // A name that does not resolve now is the attempt's to report, as the DNS may change.
    expect(await strict.refusal('https://unknown.test/hook', 'production')).toBeUndefined();
    expect(seen).toEqual([]);
    expect(connections).toBe(0);
  });

  const opened = new WebhookSender(targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'all', WEBHOOK_ALLOW_PRIVATE_NETWORKS: '10.20.0.0/16' }), {
    timeoutMs: 1000,
    resolve,
  });
  afterAll(() => opened.close());

  it.each([
    ['metadata.test', '169.254.169.254'],
    ['metadata6.test', 'fe80::a9fe:a9fe'],
    ['internal.test', '10.1.2.3'],
    ['mapped.test', '::ffff:169.254.169.254'],
    ['nat64.test', '64:ff9b::a9fe:a9fe'],
    ['rebind.test', '169.254.169.254'],
  ])('refuses %s (%s) in every mode and environment, over http and https, without a connection', async (host, address) => {
    for (const sender of [strict, local, opened]) {
      for (const environment of ['sandbox', 'production'] as const) {
        for (const scheme of ['http', 'https']) {
          const sent = await sender.send(`${scheme}://${host}:${port}/ok`, environment, {}, body);
          expect(sent.result.kind).toBe('refused');
          // The reason names the kind of address, never the address an internal name resolves to.
          if (sent.result.kind === 'refused') expect(sent.result.error).not.toContain(address);
        }
      }
    }
    expect(seen).toEqual([]);
    expect(connections).toBe(0);
  });

  it.each(['169.254.169.254', '[fe80::1]', '10.1.2.3', '[::ffff:169.254.169.254]', '[::ffff:a9fe:a9fe]', '[64:ff9b::a9fe:a9fe]', '0.0.0.0', '[::]'])(
    'refuses the address %s written in the URL, without a connection',
    async (host) => {
      for (const sender of [strict, local, opened]) {
        for (const scheme of ['http', 'https']) expect((await sender.send(`${scheme}://${host}:${port}/ok`, 'sandbox', {}, body)).result.kind).toBe('refused');
      }
      expect(seen).toEqual([]);
      expect(connections).toBe(0);
    },
  );

  it("refuses loopback on the platform's own ports, by IP and by name, even where loopback is allowed", async () => {
    const guarded = new WebhookSender(targetPolicyFrom({ WEBHOOK_ALLOW_LOOPBACK: 'all', WEBHOOK_RESERVED_PORTS: `3002,${port}` }), {
      timeoutMs: 1000,
      resolve,
    });
    try {
      const refused = `the webhook host resolves to loopback on port ${port}, one of the platform's own`;
      expect((await guarded.send(`http://127.0.0.1:${port}/ok`, 'sandbox', {}, body)).result).toEqual({ kind: 'refused', error: refused });
      expect((await guarded.send(`http://receiver.test:${port}/ok`, 'sandbox', {}, body)).result).toEqual({ kind: 'refused', error: refused });
      expect((await guarded.send(`https://receiver.test:${port}/ok`, 'production', {}, body)).result).toEqual({ kind: 'refused', error: refused });
      expect((await guarded.send(`http://[::ffff:127.0.0.1]:${port}/ok`, 'sandbox', {}, body)).result.kind).toBe('refused');
      expect(seen).toEqual([]);
      expect(connections).toBe(0);
    } finally {
      await guarded.close();
    }
  });
});
