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
      seen.push({ method: request.method ?? '', url: request.url ?? '', ...(typeof header === 'string' && { simulatedNow: header }), ...(text && { body: JSON.parse(text) }) });
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
      const body = { idRec: 'RR1234567820240115abcdefghijk', calendario: { dataDeVencimento: '2030-01-10' }, valor: { original: '1.00' }, ajusteDiaUtil: false, recebedor: { conta: '1', tipoConta: 'CORRENTE' as const } };
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
