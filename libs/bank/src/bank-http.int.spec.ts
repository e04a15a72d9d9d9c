import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { PixBankClient } from './bank-client';
import { SIMULATED_NOW_HEADER } from './bank-http';
import { SimulatedPayer } from './simulated-payer';

// What the recurring charge methods and the at(now) views put on the wire, against a tiny server on 127.0.0.1
// that echoes each request (the bank simulator's own tests cover the answers: apps/bank-simulator).

interface Seen {
  method: string;
  url: string;
  simulatedNow?: string;
  body?: unknown;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const header = request.headers[SIMULATED_NOW_HEADER];
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        ...(typeof header === 'string' && { simulatedNow: header }),
        ...(text && { body: JSON.parse(text) }),
      });
      response.writeHead(request.method === 'DELETE' ? 204 : 200, { 'content-type': 'application/json' }).end(request.method === 'DELETE' ? '' : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen.length = 0;
});

describe('recurring charges on the wire', () => {
  it('calls the BCB paths with the spec methods and bodies', async () => {
    const bank = new PixBankClient(baseUrl, { token: 't' });
    const payer = new SimulatedPayer(baseUrl, { token: 't' });
    try {
      const body = {
        idRec: 'RR1234567820240115abcdefghijk',
        calendario: { dataDeVencimento: '2030-01-10' },
        valor: { original: '1.00' },
        ajusteDiaUtil: false,
        recebedor: { conta: '1', tipoConta: 'CORRENTE' as const },
      };
      await bank.createRecurringCharge('abc', body);
      await bank.getRecurringCharge('abc');
      await bank.cancelRecurringCharge('abc');
      await bank.retryRecurringCharge('abc', '2030-01-12');
      await bank.configureRecurringChargeWebhook('https://example.com/hooks');
      await bank.getRecurringChargeWebhook();
      await bank.deleteRecurringChargeWebhook();
      await payer.payRecurringCharge('abc');
      await payer.failRecurringCharge('a/b');
    } finally {
      await bank.close();
      await payer.close();
    }
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['PUT', '/api/cobr/abc', expect.objectContaining({ idRec: 'RR1234567820240115abcdefghijk' })],
      ['GET', '/api/cobr/abc', undefined],
      ['PATCH', '/api/cobr/abc', { status: 'CANCELADA' }],
      ['POST', '/api/cobr/abc/retentativa/2030-01-12', undefined],
      ['PUT', '/api/webhookcobr', { webhookUrl: 'https://example.com/hooks' }],
      ['GET', '/api/webhookcobr', undefined],
      ['DELETE', '/api/webhookcobr', undefined],
      ['POST', '/api/sim/cobr/abc/pay', undefined],
      ['POST', '/api/sim/cobr/a%2Fb/fail', undefined],
    ]);
    expect(seen.every((s) => s.simulatedNow === undefined)).toBe(true);
  });
});

describe('at(now)', () => {
  it('sends x-simulated-now on every request of the view only, sharing a pool the view never closes', async () => {
    const bank = new PixBankClient(baseUrl, { token: 't' });
    const payer = new SimulatedPayer(baseUrl, { token: 't' });
    const now = new Date('2030-01-10T15:00:00.000Z');
    try {
      const bankView = bank.at(now);
      const payerView = payer.at(now);
      await bankView.getRecurringCharge('abc');
      await payerView.payRecurringCharge('abc');
      await bankView.close();
      await payerView.close();
      await bank.getRecurringCharge('abc'); // the pool is still open
      await payer.payRecurringCharge('abc');
      expect(seen.map((s) => s.simulatedNow)).toEqual(['2030-01-10T15:00:00.000Z', '2030-01-10T15:00:00.000Z', undefined, undefined]);
    } finally {
      await bank.close();
      await payer.close();
    }
  });

  it('refuses an instant that is not one', () => {
    const bank = new PixBankClient(baseUrl);
    expect(() => bank.at(new Date(Number.NaN))).toThrow(RangeError);
    return bank.close();
  });
});

describe('answers', () => {
  let answering: Server;
  let answeringUrl: string;

  beforeAll(async () => {
    answering = createServer((request, response) => {
      void readBody(request).then(() => {
        if (request.url === '/cobr/refused') {
          response.writeHead(400, { 'content-type': 'application/problem+json' }).end(
            JSON.stringify({
              type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida',
              title: 'Operação inválida',
              status: 400,
              detail: 'txid em uso',
              violacoes: [{ razao: 'txid encontra-se em uso', propriedade: 'txid' }],
            }),
          );
        } else if (request.url === '/cobr/broken') response.writeHead(502).end('<html>bad gateway</html>');
        else if (request.url === '/cobr/garbled') response.writeHead(200, { 'content-type': 'application/json' }).end('{"txid":');
        else if (request.url === '/cobr/silent') setTimeout(() => response.writeHead(200).end('{}'), 3000).unref();
        else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ txid: 'ok', valor: { original: 'é 1.00'.repeat(2000) } }));
      });
    });
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
    answeringUrl = `http://127.0.0.1:${(answering.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    answering.closeAllConnections();
    return new Promise<void>((resolve) => answering.close(() => resolve()));
  });

  it('reads a 2xx body whole, however many chunks it arrives in', async () => {
    const bank = new PixBankClient(answeringUrl);
    try {
      const answer = (await bank.getRecurringCharge('ok')) as unknown as { valor: { original: string } };
      expect(answer.valor.original).toBe('é 1.00'.repeat(2000));
    } finally {
      await bank.close();
    }
  });

  it('turns a problem into a ProviderError with its violations, a bare 5xx into unavailability', async () => {
    const bank = new PixBankClient(answeringUrl);
    try {
      await expect(bank.getRecurringCharge('refused')).rejects.toMatchObject({
        refusal: { kind: 'provider', status: 400, message: 'txid em uso', violations: [{ property: 'txid', reason: 'txid encontra-se em uso' }] },
      });
      await expect(bank.getRecurringCharge('broken')).rejects.toMatchObject({
        refusal: { kind: 'unavailable', message: 'the bank failed to answer (HTTP 502)' },
      });
      await expect(bank.getRecurringCharge('garbled')).rejects.toThrow('the bank answered GET /cobr/garbled with HTTP 200 and a body that is not JSON');
    } finally {
      await bank.close();
    }
  });

  it('is unavailable when the bank does not answer in time or cannot be reached', async () => {
    const slow = new PixBankClient(answeringUrl, { timeoutMs: 100 });
    const closed = new PixBankClient('http://127.0.0.1:1');
    try {
      await expect(slow.getRecurringCharge('silent')).rejects.toMatchObject({
        refusal: { kind: 'unavailable', message: expect.stringContaining('the bank is unavailable: ') },
      });
      await expect(closed.getRecurringCharge('any')).rejects.toMatchObject({
        refusal: { kind: 'unavailable', message: expect.stringContaining('the bank is unavailable: ') },
      });
    } finally {
      await slow.close();
      await closed.close();
    }
  });
});
