import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Refusal, RefusalException } from '@pixauto/errors';
import { PixBankClient, SimulatedPayer, WebhookPixCallback } from '@pixauto/bank';
import { ProviderAClient, ProviderBClient, ProviderRefusal, ReceiptProviderClient } from '@pixauto/receipts';
import { eventually, until } from '@pixauto/testing';
import { pdfText } from '@pixauto/receipts/testing';
import { createSimulatorApp } from './app';
import { SimulatorConfig, simulatorConfig } from './config';

// Refunds of Pix received (BCB PUT/GET /pix/{e2eid}/devolucao/{id}, /sim settlement, the sweeper, the Pix callback)
// and the two receipt providers (PROVIDER_A: OAuth2 and PDF bytes; PROVIDER_B: signed API key and base64 JSON),
// through real HTTP: the simulator in-process on a free port with a throw-away database on the real PostgreSQL, and
// libs/receipts' clients, whose PDFs are read back as text.

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `pixauto_test_refunds_${randomBytes(6).toString('hex')}`;
const SETTLE_MS = 3000;
const GOOD = { client_id: 'loja-1', client_secret: 's3cr3t' };
const INVALID = { client_id: 'loja-1', client_secret: 'invalid' };

let config: SimulatorConfig;
let app: NestFastifyApplication;
let baseUrl: string;
let bank: PixBankClient;
let payer: SimulatedPayer;
let providerA: ProviderAClient;
let providerB: ProviderBClient;
let callbacks: WebhookPixCallback[] = [];
let receiver: Server;

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

beforeAll(async () => {
  config = {
    ...simulatorConfig({}),
    databaseName,
    webhookRetryDelaysMs: [100],
    refundSettleMs: SETTLE_MS,
    refundSweep: { everyMs: 100, batchSize: 100, maxBatchesPerRun: 10 },
  };
  app = await createSimulatorApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  bank = new PixBankClient(baseUrl, { token: 'refunds-token' });
  payer = new SimulatedPayer(baseUrl, { token: 'refunds-token' });
  providerA = new ProviderAClient({ url: `${baseUrl}/provider-a`, timeoutMs: 5000 });
  providerB = new ProviderBClient({ url: `${baseUrl}/provider-b`, timeoutMs: 5000 });
  receiver = createServer((request, response) => {
    void readBody(request).then((text) => {
      callbacks.push(JSON.parse(text) as WebhookPixCallback);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await bank.configurePixWebhook(config.receiver.chave, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`);
});

afterAll(async () => {
  await Promise.all([bank?.close(), payer?.close(), providerA?.close(), providerB?.close()]);
  await app?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await client.end();
});

/** A paid immediate charge of `valor` with a named debtor: its e2e id. */
async function paidPix(valor = '100.00'): Promise<string> {
  const txid = randomBytes(16).toString('hex');
  await bank.createImmediateCharge(txid, {
    calendario: { expiracao: 3600 },
    devedor: { cpf: '52998224725', nome: 'Maria Silva' },
    valor: { original: valor },
    chave: config.receiver.chave,
  });
  const cob = await payer.payImmediateCharge(txid);
  return cob.pix?.[0].endToEndId as string;
}

async function refusalOf(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call;
  } catch (error) {
    if (error instanceof RefusalException) return error.refusal;
    throw error;
  }
  throw new Error('expected the bank to refuse');
}

async function providerRefusalOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ProviderRefusal) return error.message;
    throw error;
  }
  throw new Error('expected the provider to refuse');
}

describe('refunds at the bank (PUT/GET /pix/{e2eid}/devolucao/{id})', () => {
  it('asks EM_PROCESSAMENTO, shows it on the Pix, and liquidates it on /sim with a callback carrying it', async () => {
    const e2e = await paidPix();
    const asked = await bank.requestRefund(e2e, 'PIXAUTORT1', { valor: '40.00' });
    expect(asked).toMatchObject({ id: 'PIXAUTORT1', valor: '40.00', status: 'EM_PROCESSAMENTO', rtrId: expect.stringMatching(/^D\d{20}[A-Za-z0-9]{11}$/) });
    expect(await bank.getRefund(e2e, 'PIXAUTORT1')).toEqual(asked);
    expect((await bank.getReceivedPix(e2e)).devolucoes).toEqual([asked]);
    callbacks = [];
    const settled = await payer.settleRefund(e2e, 'PIXAUTORT1');
    expect(settled).toMatchObject({ status: 'DEVOLVIDO', horario: { liquidacao: expect.any(String) } });
    await until(() => callbacks.some((c) => c.pix.some((p) => p.endToEndId === e2e && p.devolucoes?.[0]?.status === 'DEVOLVIDO')), {
      what: 'the Pix callback carrying the refund DEVOLVIDO',
    });
  });

  it('liquidates by itself refundSettleMs after the request', async () => {
    const e2e = await paidPix();
    await bank.requestRefund(e2e, 'PIXAUTORT2', { valor: '1.00' });
    await eventually(
      () => bank.getRefund(e2e, 'PIXAUTORT2'),
      (refund) => refund.status === 'DEVOLVIDO',
      { timeoutMs: SETTLE_MS + 3000 },
    );
  });

  it('refuses a refund beyond the Pix, a used id, and knows no refund or Pix it never saw', async () => {
    const e2e = await paidPix('10.00');
    await bank.requestRefund(e2e, 'PIXAUTORT3', { valor: '6.00' });
    expect(await refusalOf(bank.requestRefund(e2e, 'PIXAUTORT4', { valor: '4.01' }))).toMatchObject({ kind: 'provider', status: 400 });
    expect(await refusalOf(bank.requestRefund(e2e, 'PIXAUTORT3', { valor: '1.00' }))).toMatchObject({ kind: 'provider', status: 400 });
    expect(await refusalOf(bank.getRefund(e2e, 'PIXAUTORT9'))).toMatchObject({ kind: 'provider', status: 404 });
    expect(await refusalOf(bank.requestRefund('E00000000202601010000abcdefghijk', 'PIXAUTORT5', { valor: '1.00' }))).toMatchObject({
      kind: 'provider',
      status: 404,
    });
  });
});

describe('the receipt providers', () => {
  let rtrId: string;

  beforeAll(async () => {
    const e2e = await paidPix('150.50');
    rtrId = (await bank.requestRefund(e2e, 'PIXAUTORT6', { valor: '150.50' })).rtrId;
    await payer.settleRefund(e2e, 'PIXAUTORT6');
  });

  it.each<[string, () => ReceiptProviderClient]>([
    ['PROVIDER_A', () => providerA],
    ['PROVIDER_B', () => providerB],
  ])('%s renders a liquidated refund as a PDF naming the amount, the ids, the payer, the receiver and itself', async (code, provider) => {
    const pdf = await provider().refundReceipt(GOOD, rtrId);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    for (const expected of ['Comprovante de devolução Pix', `Emitido por ${code}`, 'R$ 150,50', rtrId, 'Maria Silva', '***.982.247-**', config.receiver.nome])
      expect(text).toContain(expected);
  });

  it('refuses a secret of "invalid" in each bank\'s own words', async () => {
    expect(await providerRefusalOf(providerA.refundReceipt(INVALID, rtrId))).toBe('Client authentication failed: the client secret is invalid.');
    expect(await providerRefusalOf(providerB.refundReceipt(INVALID, rtrId))).toBe('The request signature does not match the API key secret.');
    expect(await providerRefusalOf(providerA.refundReceipt({ client_id: 'x' }, rtrId))).toBe(
      "the account's PROVIDER_A credentials need a client_id and a client_secret",
    );
  });

  it('has no receipt for a refund not liquidated yet, nor for an unknown one', async () => {
    // Asked just now: the bank liquidates it SETTLE_MS later.
    const pending = (await bank.requestRefund(await paidPix('5.00'), 'PIXAUTORT7', { valor: '5.00' })).rtrId;
    expect(await providerRefusalOf(providerA.refundReceipt(GOOD, pending))).toBe('No settled refund with this identifier.');
    expect(await providerRefusalOf(providerB.refundReceipt(GOOD, 'D00000000000000000000000000000000'))).toBe('There is no receipt for this refund yet.');
  });

  it('gives up on a bank that does not answer, within the time limit', async () => {
    const silent = createServer(() => undefined); // takes the request and never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const slow = new ProviderBClient({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/provider-b`, timeoutMs: 300 });
    const started = performance.now();
    expect(await providerRefusalOf(slow.refundReceipt(GOOD, rtrId))).toBe('PROVIDER_B did not answer within 300 ms');
    expect(performance.now() - started).toBeLessThan(2000);
    await slow.close();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });
});

describe('payouts sent back by the receiving bank, and the payout receipt', () => {
  const REALIZADO = async (valor = '100.00') => {
    const idEnvio = `PIXAUTOT${randomBytes(6).toString('hex')}`;
    await bank.createPayout(idEnvio, { valor, destinatario: { chave: 'joao.silva@example.com' }, favorecido: { nome: 'João da Silva', cpf: '52998224725' } });
    return payer.setPayoutStatus(idEnvio, 'REALIZADO');
  };

  it('returns part of a REALIZADO payout under the id given, then what is left under its rtrId, never more', async () => {
    const paid = await REALIZADO();
    const first = await payer.returnPayout(paid.idEnvio, { valor: '30.00', id: 'DEVOLVE1' });
    expect(first.devolucoes).toEqual([
      { id: 'DEVOLVE1', rtrId: expect.stringMatching(/^D\d{20}[A-Za-z0-9]{11}$/), valor: '30.00', horario: { liquidacao: expect.any(String) } },
    ]);
    expect(await refusalOf(payer.returnPayout(paid.idEnvio, { valor: '70.01' }))).toMatchObject({ kind: 'provider', status: 400 });
    expect(await refusalOf(payer.returnPayout(paid.idEnvio, { id: 'DEVOLVE1' }))).toMatchObject({ kind: 'provider', status: 400 });
    const rest = await payer.returnPayout(paid.idEnvio, {});
    expect(rest.devolucoes?.[1]).toMatchObject({ valor: '70.00', id: rest.devolucoes?.[1].rtrId });
    expect((await bank.getPayout(paid.idEnvio)).devolucoes).toHaveLength(2);
  });

  it('returns only a REALIZADO payout', async () => {
    const idEnvio = `PIXAUTOT${randomBytes(6).toString('hex')}`;
    await bank.createPayout(idEnvio, {
      valor: '1.00',
      destinatario: { chave: 'joao.silva@example.com' },
      favorecido: { nome: 'João da Silva', cpf: '52998224725' },
    });
    await payer.setPayoutStatus(idEnvio, 'EM_PROCESSAMENTO');
    expect(await refusalOf(payer.returnPayout(idEnvio, {}))).toMatchObject({ kind: 'provider', status: 400 });
  });

  it('the providers render the payout receipt by its end-to-end id, and the return receipt by its rtrId', async () => {
    const paid = await REALIZADO('250.00');
    const sent = await pdfText(await providerA.payoutReceipt(GOOD, paid.endToEndId));
    for (const expected of [
      'Comprovante de Pix enviado',
      'Emitido por PROVIDER_A',
      'R$ 250,00',
      paid.endToEndId,
      'JOÃO DA SILVA',
      'Chave Pix: joao.silva@example.com',
    ])
      expect(sent).toContain(expected);
    const returned = await payer.returnPayout(paid.idEnvio, { valor: '50.00' });
    const back = await pdfText(await providerB.refundReceipt(GOOD, returned.devolucoes?.[0].rtrId as string));
    for (const expected of ['Comprovante de devolução Pix', 'Emitido por PROVIDER_B', 'R$ 50,00', paid.endToEndId, 'JOÃO DA SILVA'])
      expect(back).toContain(expected);
    const unpaid = `PIXAUTOT${randomBytes(6).toString('hex')}`;
    const pending = await bank.createPayout(unpaid, {
      valor: '1.00',
      destinatario: { chave: 'joao.silva@example.com' },
      favorecido: { nome: 'João da Silva', cpf: '52998224725' },
    });
    await payer.setPayoutStatus(unpaid, 'EM_PROCESSAMENTO');
    expect(await providerRefusalOf(providerB.payoutReceipt(GOOD, pending.endToEndId))).toBe('There is no receipt for this payout.');
  });
});
