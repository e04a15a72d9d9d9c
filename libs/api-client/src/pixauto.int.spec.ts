import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { pixauto, PixautoError, retryDelayMs, verifyWebhook, WebhookVerificationError } from './index';

// The SDK against a loopback HTTP server that answers what the test scripts: what it sends, how it retries, how it pages.

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = { status: number; headers?: Record<string, string>; body: unknown };

/** A server answering each request with the next scripted answer (the last one again once they run out). */
async function scripted(answers: Answer[] | ((seen: Seen) => Answer)): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const one = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(one);
      const answer = typeof answers === 'function' ? answers(one) : answers[Math.min(seen.length - 1, answers.length - 1)];
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});
async function serve(answers: Parameters<typeof scripted>[0]) {
  const running = await scripted(answers);
  servers.push(running.server);
  return running;
}

const CHARGE = { transaction_id: 'pedido-1', amount: 50, payer: { document_number: '52998224725', name: 'Maria Silva' } };

describe('the pixauto client', () => {
  it('sends one Idempotency-Key with a POST and the same one on each retry, waiting what Retry-After asks', async () => {
    const api = await serve([
      { status: 503, headers: { 'retry-after': '1' }, body: { message: 'busy' } },
      { status: 429, headers: { 'retry-after': '2' }, body: { message: 'slow down' } },
      { status: 201, body: { id: 7 } },
    ]);
    const waits: number[] = [];
    const client = pixauto({ apiKey: 'pix_test_k', baseUrl: api.url, sleep: async (ms) => void waits.push(ms) });
    const { data } = await client.api.POST('/v2/pix', { body: CHARGE as never });
    expect(data).toEqual({ id: 7 });
    expect(api.seen).toHaveLength(3);
    const keys = api.seen.map((seen) => seen.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(api.seen.map((seen) => JSON.parse(seen.body))).toEqual([CHARGE, CHARGE, CHARGE]);
    expect(api.seen[0].headers.authorization).toBe('pix_test_k');
    expect(waits).toEqual([1000, 2000]);
  });

  it('keeps a key the caller chose, gives each POST its own otherwise, and sets none on a GET', async () => {
    const api = await serve([{ status: 201, body: { id: 1 } }]);
    const client = pixauto({ apiKey: 'k', baseUrl: api.url });
    await client.api.POST('/v2/pix', { body: CHARGE as never, headers: { 'idempotency-key': 'pedido-1-try' } });
    await client.api.POST('/v2/pix', { body: CHARGE as never });
    await client.api.POST('/v2/pix', { body: CHARGE as never });
    await client.api.GET('/v2/pix', { params: { query: { id: 1 } as never } });
    const keys = api.seen.map((seen) => seen.headers['idempotency-key']);
    expect(keys[0]).toBe('pedido-1-try');
    expect(keys[1]).not.toBe(keys[2]);
    expect(keys[3]).toBeUndefined();
  });

  it('returns the 503 once its retries are spent, or at once when Retry-After is longer than it waits', async () => {
    const api = await serve([{ status: 503, headers: { 'retry-after': '5' }, body: { message: 'busy' } }]);
    const waits: number[] = [];
    const { response } = await pixauto({ apiKey: 'k', baseUrl: api.url, maxRetries: 2, sleep: async (ms) => void waits.push(ms) }).api.GET('/v2/sandbox/clock');
    expect(response.status).toBe(503);
    expect(api.seen).toHaveLength(3);
    expect(waits).toEqual([5000, 5000]);

    const patient = await serve([{ status: 429, headers: { 'retry-after': '120' }, body: { message: 'later' } }]);
    const { response: later } = await pixauto({ apiKey: 'k', baseUrl: patient.url, sleep: async () => undefined }).api.GET('/v2/sandbox/clock');
    expect(later.status).toBe(429);
    expect(patient.seen).toHaveLength(1);
  });

  it('does not retry a refusal or an error of ours: 400, 404 and 500 are answered as they came', async () => {
    for (const status of [400, 404, 500]) {
      const api = await serve([{ status, body: { message: 'no' } }]);
      const { response } = await pixauto({ apiKey: 'k', baseUrl: api.url, sleep: async () => undefined }).api.GET('/v2/sandbox/clock');
      expect(response.status).toBe(status);
      expect(api.seen).toHaveLength(1);
    }
  });

  it('iterates a paged list page by page, counting from 0, or from 1 for the payouts', async () => {
    const charges = await serve((seen) => {
      const page = Number(new URL(seen.url, 'http://x').searchParams.get('page'));
      return {
        status: 200,
        body: {
          charges: page < 3 ? [{ id: page * 2 }, { id: page * 2 + 1 }] : [],
          pagination: { current_page: page, page_size: 2, total_pages: 3, total_items: 6 },
        },
      };
    });
    const found: number[] = [];
    for await (const charge of pixauto({ apiKey: 'k', baseUrl: charges.url }).pixCharges({ start: 'a', end: 'b', page_size: 2 })) found.push(charge.id);
    expect(found).toEqual([0, 1, 2, 3, 4, 5]);
    expect(charges.seen.map((seen) => new URL(seen.url, 'http://x').searchParams.get('page'))).toEqual(['0', '1', '2']);
    expect(new URL(charges.seen[0].url, 'http://x').searchParams.get('page_size')).toBe('2');

    const payouts = await serve((seen) => {
      const page = Number(new URL(seen.url, 'http://x').searchParams.get('page'));
      return { status: 200, body: { data: [{ id: page }], page, size: 1, count_data: 2, count_pages: 2 } };
    });
    const paid: number[] = [];
    for await (const payout of pixauto({ apiKey: 'k', baseUrl: payouts.url }).payouts({ start: 'a', end: 'b', size: 1 })) paid.push(payout.id);
    expect(paid).toEqual([1, 2]);
  });

  it("throws a list's refusal as a PixautoError with its status and message", async () => {
    const api = await serve([{ status: 400, body: { message: 'start must be before end' } }]);
    const iterate = async () => {
      for await (const recurrence of pixauto({ apiKey: 'k', baseUrl: api.url }).recurrences({ start: 'b', end: 'a' })) void recurrence;
    };
    await expect(iterate()).rejects.toEqual(new PixautoError(400, { message: 'start must be before end' }));
    await expect(iterate()).rejects.toMatchObject({ status: 400, message: 'start must be before end' });
  });
});

describe('retryDelayMs', () => {
  const at = (headers: Record<string, string>, attempt = 0) => retryDelayMs(new Headers(headers), attempt);

  it("reads Retry-After in seconds, or as an HTTP date from the answer's own Date, and backs off without one", () => {
    expect(at({ 'retry-after': '5' })).toBe(5000);
    expect(at({ 'retry-after': 'Sat, 28 Nov 2026 12:00:10 GMT', date: 'Sat, 28 Nov 2026 12:00:00 GMT' })).toBe(10_000);
    expect(at({ 'retry-after': 'Sat, 28 Nov 2026 11:00:00 GMT', date: 'Sat, 28 Nov 2026 12:00:00 GMT' })).toBe(0);
    expect(at({ 'retry-after': 'Sat, 28 Nov 2026 12:00:10 GMT' }, 1)).toBe(1000);
    expect([0, 1, 2].map((attempt) => at({}, attempt))).toEqual([500, 1000, 2000]);
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_' + Buffer.from('a secret of thirty-two bytes!!!!').toString('base64');
  const body = JSON.stringify({ type: 'pix_charge.paid', data: { id: 7 } });
  const signed = (at = new Date()) => {
    const id = 'msg_1';
    return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, body) };
  };

  it('returns the event of a body signed with the secret, from a plain object or fetch Headers', () => {
    expect(verifyWebhook(secret, body, signed())).toEqual({ type: 'pix_charge.paid', data: { id: 7 } });
    expect(verifyWebhook(secret, Buffer.from(body), new Headers(signed()))).toEqual({ type: 'pix_charge.paid', data: { id: 7 } });
  });

  it('throws on a changed body, another secret, or a signature older than 5 minutes', () => {
    expect(() => verifyWebhook(secret, body.replace('7', '8'), signed())).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook('whsec_' + Buffer.from('another secret of 32 bytes!!!!!!').toString('base64'), body, signed())).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(secret, body, signed(new Date(Date.now() - 6 * 60_000)))).toThrow(WebhookVerificationError);
  });
});
