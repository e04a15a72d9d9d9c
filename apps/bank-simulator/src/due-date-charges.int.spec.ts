import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Refusal, RefusalException } from '@pixauto/errors';
import { CobVPayload, CobVSolicitada, PixBankClient, PixRecebido, SimulatedPayer, toCobVValor, WebhookPixCallback } from '@pixauto/bank';
import { eventually } from '@pixauto/testing';
import { createSimulatorApp } from './app';
import { SimulatorConfig, simulatorConfig } from './config';

// Due-date charges through real HTTP: PUT/GET/PATCH /cobv, the payload at the charge's location with the amount of
// the day, and the payer paying on a day the request's simulated now sets (as a sandbox tenant's test clock does),
// against the simulator started in-process with a throw-away database; the Pix reaches a receiver on 127.0.0.1.

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `pixauto_test_cobv_${randomBytes(6).toString('hex')}`;

let config: SimulatorConfig;
let app: NestFastifyApplication;
let baseUrl: string;
let bank: PixBankClient;
let payer: SimulatedPayer;
const pushed: PixRecebido[] = [];
let receiver: Server;

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

beforeAll(async () => {
  config = { ...simulatorConfig({}), databaseName, webhookRetryDelaysMs: [100] };
  app = await createSimulatorApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  bank = new PixBankClient(baseUrl, { token: 'cobv-token' });
  payer = new SimulatedPayer(baseUrl, { token: 'cobv-token' });
  receiver = createServer((request, response) => {
    void readBody(request).then((text) => {
      pushed.push(...((JSON.parse(text) as Partial<WebhookPixCallback>).pix ?? []));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await bank.configurePixWebhook(config.receiver.chave, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
});

afterAll(async () => {
  await bank?.close();
  await payer?.close();
  await app?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await client.end();
});

async function refusalOf(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call;
  } catch (error) {
    if (error instanceof RefusalException) return error.refusal;
    throw error;
  }
  throw new Error('expected the bank to refuse');
}

const today = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const inDays = (days: number): string => new Date(Date.parse(`${today()}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** Noon in Brasília on a day: what a sandbox tenant's clock sends as the request's now. */
const noonOf = (day: string): Date => new Date(`${day}T15:00:00Z`);
const newTxid = (): string => `PIXAUTOVT${randomBytes(10).toString('hex')}`;

// Due on a Wednesday at least two weeks ahead: the discount and the fine fall on plain business days.
const dueDate = (() => {
  let d = inDays(14);
  while (new Date(`${d}T12:00:00Z`).getUTCDay() !== 3) d = new Date(Date.parse(`${d}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return d;
})();
const dayFrom = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const charge = (): CobVSolicitada => ({
  calendario: { dataDeVencimento: dueDate, validadeAposVencimento: 2 },
  devedor: { cnpj: '12ABC34501DE35', nome: 'Loja Alfa Ltda' },
  valor: toCobVValor({
    amount_centavos: 10000,
    due_date: dueDate,
    days_valid_after_due: 2,
    fine: { modality: 'PERCENTAGE', value: 200 },
    interest: { modality: 'AMOUNT_PER_CALENDAR_DAY', value: 10 },
    discount: { modality: 'FIXED_AMOUNT_UNTIL_DATE', fixed_dates: [{ date: dayFrom(dueDate, -7), value: 500 }] },
    abatement: null,
  }),
  chave: config.receiver.chave,
  solicitacaoPagador: 'Mensalidade',
});

/** The payload at the charge's location, read as the payer's bank does (an unsecured JWS here). */
async function payloadAt(location: string, query = ''): Promise<{ status: number; payload?: CobVPayload; type?: string }> {
  // The location names the simulator's public host; this one listens on a port of its own.
  const response = await fetch(`${baseUrl}${location.slice(location.indexOf('/'))}${query}`);
  const text = await response.text();
  if (response.status !== 200) return { status: response.status, type: (JSON.parse(text) as { type: string }).type };
  expect(response.headers.get('content-type')).toContain('application/jose');
  const [header, payload, signature] = text.split('.');
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'none', typ: 'JWS' });
  expect(signature).toBe('');
  return { status: 200, payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) as CobVPayload };
}

describe('the simulator speaks /cobv', () => {
  it('creates a charge with a dynamic BR Code pointing at its location, whose payload carries the amount of the day', async () => {
    const txid = newTxid();
    const created = await bank.createDueDateCharge(txid, charge());
    expect(created).toMatchObject({ txid, status: 'ATIVA', revisao: 0, calendario: { dataDeVencimento: dueDate, validadeAposVencimento: 2 } });
    expect(created.location).toMatch(/\/qr\/v2\/cobv\/[0-9a-f]{32}$/);
    expect(created.pixCopiaECola).toContain(created.location);
    expect((await payloadAt(created.location)).payload?.valor).toEqual({ original: '100.00', desconto: '5.00', final: '95.00' });
    expect((await payloadAt(created.location, `?DPP=${dueDate}`)).payload?.valor).toEqual({ original: '100.00', final: '100.00' });
    expect((await payloadAt(created.location, `?DPP=${dayFrom(dueDate, 2)}`)).payload?.valor).toEqual({
      original: '100.00',
      multa: '2.00',
      juros: '0.20',
      final: '102.20',
    });
    expect(await payloadAt(created.location, `?DPP=${dayFrom(dueDate, 3)}`)).toEqual({
      status: 400,
      type: 'https://pix.bcb.gov.br/api/v2/error/CobPayloadOperacaoInvalida',
    });
    expect((await payloadAt(`${created.location.replace(/[0-9a-f]{32}$/, '0'.repeat(32))}`)).status).toBe(404);
  });

  it('refuses a due date before today, an undocumented payer and a modality BCB has not', async () => {
    const refusal = await refusalOf(
      bank.createDueDateCharge(newTxid(), {
        ...charge(),
        calendario: { dataDeVencimento: inDays(-1) },
        devedor: { cpf: '12345678900', nome: 'X' },
        valor: { original: '1.00', juros: { modalidade: 9 as 8, valorPerc: '1.00' } },
      }),
    );
    expect(refusal).toMatchObject({ status: 400, providerCode: 'CobVOperacaoInvalida' });
  });

  it('revises the terms of an ATIVA charge, removes it, and then refuses both', async () => {
    const txid = newTxid();
    await bank.createDueDateCharge(txid, charge());
    const revised = await bank.reviseDueDateCharge(txid, { valor: { original: '120.00' } });
    expect(revised).toMatchObject({ revisao: 1, valor: { original: '120.00' } });
    expect(await bank.removeDueDateCharge(txid)).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 2 });
    expect(await refusalOf(bank.reviseDueDateCharge(txid, { valor: { original: '1.00' } }))).toMatchObject({
      status: 400,
      providerCode: 'CobVOperacaoInvalida',
    });
    expect(await refusalOf(payer.payDueDateCharge(txid))).toMatchObject({ status: 400, providerCode: 'CobVOperacaoInvalida' });
  });

  it("settles a payment on the request's day with that day's amount, pushes its Pix, and refuses one past the validity", async () => {
    const late = newTxid();
    await bank.createDueDateCharge(late, charge());
    const paid = await payer.at(noonOf(dayFrom(dueDate, 1))).payDueDateCharge(late);
    expect(paid).toMatchObject({ status: 'CONCLUIDA', pix: [{ txid: late, valor: '102.10' }] });
    expect(await bank.getDueDateCharge(late)).toMatchObject({ status: 'CONCLUIDA', pix: [{ valor: '102.10' }] });
    await eventually(
      () => pushed.filter((p) => p.txid === late),
      (p) => p.length === 1,
      { what: 'the Pix pushed to the webhook' },
    );

    const tooLate = newTxid();
    await bank.createDueDateCharge(tooLate, charge());
    const refusal = await refusalOf(payer.at(noonOf(dayFrom(dueDate, 3))).payDueDateCharge(tooLate));
    expect(refusal).toMatchObject({ status: 400, providerCode: 'CobVOperacaoInvalida' });
    expect(await bank.getDueDateCharge(tooLate)).toMatchObject({ status: 'ATIVA' });
    expect(await refusalOf(bank.getDueDateCharge(newTxid()))).toMatchObject({ status: 404, providerCode: 'CobVNaoEncontrada' });
  });
});
