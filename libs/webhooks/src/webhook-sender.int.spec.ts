import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { signatureHeaders, WebhookSender } from './webhook-sender';

// The sender against a real HTTP server on loopback: signed requests, no redirects followed, a bounded wait, and
// loopback itself refused without WEBHOOK_ALLOW_PRIVATE_NETWORKS (no request made at all).

let server: Server;
let port: number;
const seen: { url: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/redirect') response.writeHead(302, { location: '/ok' }).end();
      else if (request.url === '/hang') return; // never answers
      else if (request.url === '/big') response.writeHead(500).end('x'.repeat(100_000));
      else response.writeHead(200).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => (seen.length = 0));

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const body = JSON.stringify({ type: 'charge.paid', timestamp: '2026-11-25T12:00:00.000Z', data: { charge_id: 'c1' } });

describe('WebhookSender', () => {
  const local = new WebhookSender({ allowPrivateNetworks: true }, 1000);
  const strict = new WebhookSender({ allowPrivateNetworks: false }, 1000);
  afterAll(async () => {
    await local.close();
    await strict.close();
  });

  it('POSTs the body with Standard Webhooks headers that verify', async () => {
    const headers = signatureHeaders('msg_1', new Date(), body, [SECRET]);
    const sent = await local.send(`http://127.0.0.1:${port}/ok`, headers, body);
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
    const sent = await local.send(`http://127.0.0.1:${port}/redirect`, {}, body);
    expect(sent.result).toEqual({ kind: 'answered', statusCode: 302 });
    expect(seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it('counts an endpoint that does not answer in time as down', async () => {
    const sent = await local.send(`http://127.0.0.1:${port}/hang`, {}, body);
    expect(sent.result).toEqual({ kind: 'down', error: 'no answer within 1000 ms' });
    expect(sent.latencyMs).toBeGreaterThanOrEqual(990);
  });

  it('keeps only the first kilobyte of an answer', async () => {
    const sent = await local.send(`http://127.0.0.1:${port}/big`, {}, body);
    expect(sent.responseBody).toHaveLength(1024);
  });

  it('refuses loopback, by IP or by name, and plain http, without making a request', async () => {
    expect((await strict.send(`https://127.0.0.1:${port}/ok`, {}, body)).result).toEqual({
      kind: 'refused',
      error: 'the webhook host resolves to a private or reserved address (127.0.0.1)',
    });
    expect((await strict.send(`https://[::ffff:127.0.0.1]:${port}/ok`, {}, body)).result.kind).toBe('refused');
    const byName = await strict.send(`https://localhost:${port}/ok`, {}, body);
    expect(byName.result).toEqual({ kind: 'refused', error: expect.stringMatching(/^the webhook host resolves to a private or reserved address \((127\.0\.0\.1|::1)\)$/) });
    expect((await strict.send(`http://merchant.example/hook`, {}, body)).result).toEqual({ kind: 'refused', error: 'the webhook URL must use https (got http)' });
    expect(seen).toEqual([]);
  });
});
