import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Refusal, RefusalException } from '@pixauto/errors';
import { PayoutStatus } from '@pixauto/contracts';
import { Pagamento, PagamentoSolicitado, payoutStatusOf, PixBankClient, PixRecebido, SimulatedPayer } from '@pixauto/bank';
import type { RecSolicitada, WebhookPagamentosCallback, WebhookPixCallback, CobSolicitada } from '@pixauto/bank';
import { eventually } from '@pixauto/testing';
import { createSimulatorApp } from './app';
import { SimulatorConfig, simulatorConfig } from './config';
import { INSTITUTIONS } from './domain/dict';

// Cash-in (the Pix webhook per key, charge removal, GET /pix/{e2eid}) and cash-out (payouts) through real HTTP: every
// PixBankClient and SimulatedPayer method for them, against the bank simulator started in-process on a free port with
// a throw-away database on the real PostgreSQL server, as in bank-client.int.spec.ts; callbacks reach a receiver on 127.0.0.1.

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `pixauto_test_cashio_${randomBytes(6).toString('hex')}`;
const SETTLE_MS = 1000;

async function onServer(sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The webhook receiver: records every callback with the path it was posted to. */
class Receiver {
  readonly calls: { path: string; body: unknown }[] = [];
  private server!: Server;
  url!: string;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void readBody(request).then((text) => {
        this.calls.push({ path: request.url ?? '', body: JSON.parse(text) });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/bank/`;
  }

  /** The Pix received that were pushed, with the path of their POST. */
  pix(): { path: string; pix: PixRecebido }[] {
    return this.calls.flatMap((call) => ((call.body as Partial<WebhookPixCallback>).pix ?? []).map((pix) => ({ path: call.path, pix })));
  }

  /** The pushed states of one payout, in the order they arrived, with the path of their POST. */
  payout(idEnvio: string): { path: string; pagamento: Pagamento }[] {
    return this.calls
      .flatMap((call) => ((call.body as Partial<WebhookPagamentosCallback>).pagamentos ?? []).map((pagamento) => ({ path: call.path, pagamento })))
      .filter((p) => p.pagamento.idEnvio === idEnvio);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

let config: SimulatorConfig;

/** An immediate charge as the BCB requires it (calendario, the receiver's key), with what the test sets. */
const immediateCharge = (body: Omit<CobSolicitada, 'calendario' | 'chave'> & Partial<CobSolicitada>): CobSolicitada => ({
  calendario: {},
  chave: config.receiver.chave,
  ...body,
});
let app: NestFastifyApplication;
let baseUrl: string;
let bank: PixBankClient;
let payer: SimulatedPayer;
const receiver = new Receiver();

async function startSimulator(): Promise<void> {
  app = await createSimulatorApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  bank = new PixBankClient(baseUrl, { token: 'production-token' });
  payer = new SimulatedPayer(baseUrl, { token: 'production-token' });
}

async function stopSimulator(): Promise<void> {
  await bank?.close();
  await payer?.close();
  await app?.close();
}

beforeAll(async () => {
  config = {
    ...simulatorConfig({}),
    databaseName,
    webhookRetryDelaysMs: [100, 200],
    payoutSettleMs: SETTLE_MS,
    payoutSweep: { everyMs: 50, batchSize: 100, maxBatchesPerRun: 10 },
  };
  await startSimulator();
  await receiver.start();
  await bank.configurePixWebhook(config.receiver.chave, receiver.url);
  await bank.configurePayoutWebhook(receiver.url);
});

afterAll(async () => {
  await stopSimulator();
  await receiver.stop();
  await onServer(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
});

/** The refusal a call was answered with (fails the test when it succeeded or failed otherwise). */
async function refusalOf(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call;
  } catch (error) {
    if (error instanceof RefusalException) return error.refusal;
    throw error;
  }
  throw new Error('expected the bank to refuse');
}

const newTxid = (): string => randomBytes(16).toString('hex');
const newIdEnvio = (): string => `PIXAUTOT${randomBytes(6).toString('hex')}`;
const today = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const inDays = (days: number): string => new Date(Date.parse(`${today()}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const E2E_ID = /^E\d{8}\d{12}[a-zA-Z0-9]{11}$/;

const toKey = (chave = 'joao.silva@example.com'): PagamentoSolicitado => ({
  valor: '12.34',
  destinatario: { chave },
  favorecido: { nome: 'João da Silva', cpf: '52998224725' },
  infoPagador: 'Reembolso do pedido 1234',
});

const toAccount = (ispb = '60701190'): PagamentoSolicitado => ({
  valor: '1500.00',
  destinatario: { ispb, agencia: '0001', conta: '12345-6', tipoConta: 'CORRENTE' },
  favorecido: { nome: 'Padaria Pão Bom Ltda', cnpj: '11222333000181' },
});

/** A raw request, for what the client does not show (the status code, the content type). */
const raw = (method: string, path: string, body?: unknown, token = 'production-token') =>
  fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

/** A payout created now, settled by the sweeper and pushed: by then every payout created before it has had its turn. */
async function laterPayoutSettled(): Promise<void> {
  const idEnvio = newIdEnvio();
  await bank.createPayout(idEnvio, toAccount());
  await eventually(
    () => receiver.payout(idEnvio),
    (pushed) => pushed.some((p) => p.pagamento.status === 'REALIZADO'),
    { what: `payout ${idEnvio}, created later, settled and pushed` },
  );
}

describe('cash-in: the Pix webhook, per key', () => {
  it('configures, reads and deletes the webhook of a key; refuses a key that is not a DICT key and a bad URL', async () => {
    const other = new PixBankClient(baseUrl, { token: `pix-${newTxid()}` });
    const chave = '+5511987654321';
    try {
      expect(await refusalOf(other.getPixWebhook(chave))).toMatchObject({ status: 404, providerCode: 'WebhookNaoEncontrado' });
      await other.configurePixWebhook(chave, 'https://pix.example.com/api/webhook/');
      expect(await other.getPixWebhook(chave)).toEqual({
        webhookUrl: 'https://pix.example.com/api/webhook/',
        cnpj: expect.stringMatching(/^\d{14}$/),
        chave,
        criacao: expect.any(String),
      });
      await other.configurePixWebhook(chave, 'https://pix.example.com/v2/');
      expect((await other.getPixWebhook(chave)).webhookUrl).toBe('https://pix.example.com/v2/');
      expect(await refusalOf(bank.getPixWebhook(chave))).toMatchObject({ status: 404 }); // another client's
      await other.deletePixWebhook(chave);
      expect(await refusalOf(other.getPixWebhook(chave))).toMatchObject({ status: 404, providerCode: 'WebhookNaoEncontrado' });
      expect(await refusalOf(other.deletePixWebhook(chave))).toMatchObject({ status: 404 });

      expect(await refusalOf(other.configurePixWebhook('not a key', 'https://pix.example.com/'))).toMatchObject({
        status: 400,
        providerCode: 'WebhookOperacaoInvalida',
        violations: [{ property: 'chave', reason: 'O parâmetro {chave} não corresponde a uma chave DICT válida.' }],
      });
      expect(await refusalOf(other.configurePixWebhook(chave, 'not a url'))).toMatchObject({ status: 400, violations: [{ property: 'webhookUrl' }] });
    } finally {
      await other.close();
    }
  });

  it("a charge names the receiver's key; paying it pushes {pix: [...]} to {webhookUrl}/pix; GET /pix/{e2eid} shows it", async () => {
    const txid = newTxid();
    const cob = await bank.createImmediateCharge(txid, immediateCharge({ valor: { original: '99.90' }, devedor: { cpf: '52998224725', nome: 'Maria Silva' } }));
    expect(cob.chave).toBe(config.receiver.chave);

    const paid = await payer.payImmediateCharge(txid);
    const pix = paid.pix?.[0];
    expect(pix).toEqual({ endToEndId: expect.stringMatching(E2E_ID), txid, valor: '99.90', chave: config.receiver.chave, horario: expect.any(String) });

    const pushed = await eventually(
      () => receiver.pix().filter((p) => p.pix.txid === txid),
      (found) => found.length > 0,
    );
    expect(pushed).toEqual([{ path: '/hooks/bank/pix', pix }]);

    expect(await bank.getReceivedPix(pix?.endToEndId ?? '')).toEqual(pix);
    const other = new PixBankClient(baseUrl, { token: 'sandbox-token' });
    try {
      expect(await refusalOf(other.getReceivedPix(pix?.endToEndId ?? ''))).toMatchObject({ status: 404, providerCode: 'PixNaoEncontrado' });
    } finally {
      await other.close();
    }
    expect(await refusalOf(bank.getReceivedPix('E12345678202501010000abcdefghijk'))).toEqual({
      kind: 'provider',
      status: 404,
      message: 'Pix não encontrado para o e2eid informado.',
      providerCode: 'PixNaoEncontrado',
      violations: undefined,
    });
  });

  it('a journey 3 authorization that pays the activation charge pushes its Pix too', async () => {
    const txid = newTxid();
    await bank.createImmediateCharge(txid, immediateCharge({ valor: { original: '40.00' }, calendario: { expiracao: 3600 } }));
    const recurrence: RecSolicitada = {
      vinculo: { contrato: `ctr-${newTxid().slice(0, 8)}`, devedor: { cpf: '52998224725', nome: 'Fulano de Tal' } },
      calendario: { dataInicial: inDays(10), periodicidade: 'ANUAL' },
      valor: { valorRec: '480.00' },
      politicaRetentativa: 'NAO_PERMITE',
      ativacao: { dadosJornada: { txid } },
    };
    const rec = await bank.createRecurrence(recurrence);
    await payer.authorizeRecurrence(rec.idRec);
    const pushed = await eventually(
      () => receiver.pix().filter((p) => p.pix.txid === txid),
      (found) => found.length > 0,
    );
    expect(pushed.map((p) => p.pix)).toEqual([
      { endToEndId: expect.stringMatching(E2E_ID), txid, valor: '40.00', chave: config.receiver.chave, horario: expect.any(String) },
    ]);
  });

  it('pushes nothing for a charge on a key without a webhook', async () => {
    const txid = newTxid();
    await bank.createImmediateCharge(txid, immediateCharge({ valor: { original: '1.00' }, chave: 'loja@example.com' }));
    const { pix } = await payer.payImmediateCharge(txid);
    // A charge paid after it on the key that has the webhook: by the time that one is pushed, a push of this one would have been sent.
    const later = newTxid();
    await bank.createImmediateCharge(later, immediateCharge({ valor: { original: '1.00' } }));
    await payer.payImmediateCharge(later);
    await eventually(
      () => receiver.pix().filter((p) => p.pix.txid === later),
      (found) => found.length > 0,
      { what: 'the push of the charge paid later' },
    );
    expect(receiver.pix().filter((p) => p.pix.txid === txid)).toEqual([]);
    expect(await bank.getReceivedPix(pix?.[0]?.endToEndId ?? '')).toMatchObject({ txid, chave: 'loja@example.com' });
  });

  it('PATCH /cob removes an ATIVA charge (revisao + 1), which can then no longer be paid nor removed again', async () => {
    const txid = newTxid();
    await bank.createImmediateCharge(txid, immediateCharge({ valor: { original: '10.00' } }));
    const removed = await bank.removeImmediateCharge(txid);
    expect(removed).toMatchObject({ txid, status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1, chave: config.receiver.chave });
    expect((await bank.getImmediateCharge(txid)).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(await refusalOf(payer.payImmediateCharge(txid))).toMatchObject({
      status: 400,
      providerCode: 'CobOperacaoInvalida',
      message: 'A cobrança encontra-se com o status REMOVIDA_PELO_USUARIO_RECEBEDOR e não pode ser paga.',
    });
    expect(await refusalOf(bank.removeImmediateCharge(txid))).toMatchObject({
      status: 400,
      providerCode: 'CobOperacaoInvalida',
      message: 'A cobrança não está ATIVA, e a presente requisição busca alterá-la.',
    });
    expect(await refusalOf(bank.removeImmediateCharge(newTxid()))).toMatchObject({ status: 404, providerCode: 'CobNaoEncontrado' });
    const other = await raw('PATCH', `/cob/${txid}`, { status: 'CONCLUIDA' });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ violacoes: [{ propriedade: 'cob.status' }] });
  });

  it('refuses to remove a paid charge', async () => {
    const txid = newTxid();
    await bank.createImmediateCharge(txid, immediateCharge({ valor: { original: '10.00' } }));
    await payer.payImmediateCharge(txid);
    expect(await refusalOf(bank.removeImmediateCharge(txid))).toMatchObject({ status: 400, providerCode: 'CobOperacaoInvalida' });
    expect((await bank.getImmediateCharge(txid)).status).toBe('CONCLUIDA');
  });
});

describe('cash-out: payouts', () => {
  it('PUT creates a payout to a key (201, EM_PROCESSAMENTO, the DICT account); GET shows it; a repeat answers 200 with it, whatever the body', async () => {
    const idEnvio = newIdEnvio();
    const created = await raw('PUT', `/pagamentos/${idEnvio}`, toKey());
    expect(created.status).toBe(201);
    const pagamento = (await created.json()) as Pagamento;
    expect(pagamento).toEqual({
      idEnvio,
      endToEndId: expect.stringMatching(new RegExp(`^E${config.receiver.ispb}\\d{12}[a-zA-Z0-9]{11}$`)),
      valor: '12.34',
      status: 'EM_PROCESSAMENTO',
      horario: { solicitacao: expect.any(String) },
      destinatario: {
        chave: 'joao.silva@example.com',
        nome: 'JOÃO DA SILVA',
        cpf: '52998224725',
        ispb: expect.stringMatching(/^\d{8}$/),
        nomeBanco: expect.any(String),
        codigoBanco: expect.stringMatching(/^\d{3}$/),
        agencia: expect.stringMatching(/^\d{4}$/),
        conta: expect.any(String),
        tipoConta: expect.any(String),
      },
      infoPagador: 'Reembolso do pedido 1234',
      atualizacao: [{ status: 'EM_PROCESSAMENTO', data: pagamento.horario.solicitacao }],
    });
    expect(pagamento.endToEndId).toHaveLength(32);
    expect(INSTITUTIONS.find((i) => i.ispb === pagamento.destinatario.ispb)).toMatchObject({
      nome: pagamento.destinatario.nomeBanco,
      codigo: pagamento.destinatario.codigoBanco,
    });
    expect(payoutStatusOf(pagamento.status)).toBe(PayoutStatus.processing);

    expect(await bank.getPayout(idEnvio)).toEqual(pagamento);
    const repeat = await raw('PUT', `/pagamentos/${idEnvio}`, { anything: 'else' });
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual(pagamento);
    expect(await bank.createPayout(idEnvio, toAccount())).toEqual(pagamento);
  });

  it('pays an account: the institution named when the bank knows the ISPB, else null', async () => {
    const known = await bank.createPayout(newIdEnvio(), toAccount('00360305'));
    expect(known.destinatario).toEqual({
      nome: 'Padaria Pão Bom Ltda',
      cnpj: '11222333000181',
      ispb: '00360305',
      nomeBanco: 'Caixa Econômica Federal',
      codigoBanco: '104',
      agencia: '0001',
      conta: '12345-6',
      tipoConta: 'CORRENTE',
    });
    const unknown = await bank.createPayout(newIdEnvio(), toAccount('12312312'));
    expect(unknown.destinatario).toMatchObject({ ispb: '12312312', nomeBanco: null, codigoBanco: null });
  });

  it('of concurrent PUTs of one idEnvio, one creates (201) and the others answer it (200)', async () => {
    const idEnvio = newIdEnvio();
    const answers = await Promise.all(Array.from({ length: 6 }, () => raw('PUT', `/pagamentos/${idEnvio}`, toKey())));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as Pagamento[];
    expect(new Set(bodies.map((b) => b.endToEndId)).size).toBe(1);
    // Until its settlement is pushed (a later push): by then a second push of its creation would have come.
    await eventually(
      () => receiver.payout(idEnvio),
      (pushed) => pushed.some((p) => p.pagamento.status === 'REALIZADO'),
    );
    expect(receiver.payout(idEnvio).filter((p) => p.pagamento.status === 'EM_PROCESSAMENTO')).toHaveLength(1); // created once, pushed once
  });

  it('a key the DICT does not know (or of no valid format) is 422 PagamentoOperacaoInvalida on destinatario.chave, and creates nothing', async () => {
    for (const chave of ['naoexiste@example.com', '12345']) {
      const idEnvio = newIdEnvio();
      const response = await raw('PUT', `/pagamentos/${idEnvio}`, toKey(chave));
      expect(response.status).toBe(422);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(await response.json()).toEqual({
        type: 'https://pix.bcb.gov.br/api/v2/error/PagamentoOperacaoInvalida',
        title: 'Operação inválida.',
        status: 422,
        detail: 'A chave informada não foi encontrada no DICT.',
        violacoes: [{ razao: 'A chave informada não foi encontrada no DICT.', propriedade: 'destinatario.chave', valor: chave }],
      });
      expect(await refusalOf(bank.getPayout(idEnvio))).toMatchObject({ status: 404, providerCode: 'PagamentoNaoEncontrado' });
    }
    expect(await refusalOf(bank.createPayout(newIdEnvio(), toKey('naoexiste@example.com')))).toMatchObject({
      kind: 'provider',
      status: 422,
      providerCode: 'PagamentoOperacaoInvalida',
      violations: [{ property: 'destinatario.chave', reason: 'A chave informada não foi encontrada no DICT.' }],
    });
  });

  it('refuses a body that breaks the schema with 400, naming each property; a bad idEnvio too', async () => {
    const refusal = await refusalOf(
      bank.createPayout(newIdEnvio(), {
        valor: '12',
        destinatario: { ispb: '123', agencia: '12345', conta: '1' },
        favorecido: { nome: 'X', cpf: '52998224724' },
      }),
    );
    expect(refusal).toMatchObject({ kind: 'provider', status: 400, providerCode: 'PagamentoOperacaoInvalida' });
    expect(refusal.kind === 'provider' && refusal.violations?.map((v) => v.property)).toEqual([
      'valor',
      'destinatario.ispb',
      'destinatario.agencia',
      'favorecido.cpf',
    ]);
    expect(await refusalOf(bank.createPayout('com-hifen', toKey()))).toMatchObject({ status: 400, violations: [{ property: 'idEnvio' }] });
    expect(await refusalOf(bank.getPayout(newIdEnvio()))).toMatchObject({
      status: 404,
      providerCode: 'PagamentoNaoEncontrado',
      message: 'Pagamento não encontrado para o idEnvio informado.',
    });
  });

  it('settles by itself SIMULATOR_PAYOUT_SETTLE_MS after creation: REALIZADO with liquidacao, each state pushed to {webhookUrl}/pagamentos', async () => {
    const idEnvio = newIdEnvio();
    const asked = performance.now();
    const created = await bank.createPayout(idEnvio, toKey());
    const done = await eventually(
      () => bank.getPayout(idEnvio),
      (p) => p.status === 'REALIZADO',
    );
    // Not before its time: read every 50 ms from its creation on, it is first seen settled SETTLE_MS after it was asked for at the earliest.
    expect(performance.now() - asked).toBeGreaterThanOrEqual(SETTLE_MS);
    expect(done).toMatchObject({
      status: 'REALIZADO',
      endToEndId: created.endToEndId,
      horario: { solicitacao: created.horario.solicitacao, liquidacao: new Date(Date.parse(created.horario.solicitacao) + SETTLE_MS).toISOString() },
    });
    expect(done.atualizacao.map((a) => a.status)).toEqual(['EM_PROCESSAMENTO', 'REALIZADO']);
    expect(payoutStatusOf(done.status)).toBe(PayoutStatus.completed);

    const pushed = await eventually(
      () => receiver.payout(idEnvio),
      (p) => p.length >= 2,
    );
    expect(pushed).toEqual([
      { path: '/hooks/bank/pagamentos', pagamento: created },
      { path: '/hooks/bank/pagamentos', pagamento: done },
    ]);
  });

  it('/sim moves a payout now (pushed), and refuses any change once it is final', async () => {
    const cases = [
      { status: 'REALIZADO' as const, code: PayoutStatus.completed },
      { status: 'NAO_REALIZADO' as const, code: PayoutStatus.rejected, motivo: 'Conta de destino encerrada' },
      { status: 'CANCELADO' as const, code: PayoutStatus.canceled },
    ];
    const moves: { idEnvio: string; status: string }[] = [];
    for (const { status, code, motivo } of cases) {
      const idEnvio = newIdEnvio();
      moves.push({ idEnvio, status });
      await bank.createPayout(idEnvio, toAccount());
      const moved = await payer.setPayoutStatus(idEnvio, status, motivo);
      expect(moved).toMatchObject({ idEnvio, status });
      expect(payoutStatusOf(moved.status)).toBe(code);
      if (status === 'REALIZADO') expect(moved.horario.liquidacao).toEqual(expect.any(String));
      else expect(moved.horario.liquidacao).toBeUndefined();
      if (status === 'NAO_REALIZADO') expect(moved.motivo).toBe(motivo);
      if (status === 'CANCELADO') expect(moved.motivo).toEqual(expect.any(String));
      expect(await bank.getPayout(idEnvio)).toEqual(moved);

      const refusal = await refusalOf(payer.setPayoutStatus(idEnvio, 'REALIZADO'));
      expect(refusal).toMatchObject({
        kind: 'provider',
        status: 400,
        providerCode: 'PagamentoOperacaoInvalida',
        message: `O pagamento encontra-se com o status ${status} e não pode mais ser alterado.`,
      });
      const pushed = await eventually(
        () => receiver.payout(idEnvio),
        (p) => p.length >= 2,
      );
      expect(pushed.map((p) => p.pagamento.status)).toEqual(['EM_PROCESSAMENTO', status]);
    }
    await laterPayoutSettled(); // the sweeper leaves them as /sim put them
    for (const { idEnvio, status } of moves) {
      expect((await bank.getPayout(idEnvio)).status).toBe(status);
      expect(receiver.payout(idEnvio).map((p) => p.pagamento.status)).toEqual(['EM_PROCESSAMENTO', status]);
    }
  });

  it('/sim EM_PROCESSAMENTO holds a payout there (no automatic settlement) until /sim moves it; unknown payouts and statuses are refused', async () => {
    const idEnvio = newIdEnvio();
    await bank.createPayout(idEnvio, toKey());
    const held = await payer.setPayoutStatus(idEnvio, 'EM_PROCESSAMENTO');
    expect(held.status).toBe('EM_PROCESSAMENTO');
    await laterPayoutSettled();
    expect((await bank.getPayout(idEnvio)).status).toBe('EM_PROCESSAMENTO');
    expect(receiver.payout(idEnvio).map((p) => p.pagamento.status)).toEqual(['EM_PROCESSAMENTO']); // holding is no change
    expect((await payer.setPayoutStatus(idEnvio, 'REALIZADO')).status).toBe('REALIZADO');

    expect(await refusalOf(payer.setPayoutStatus(newIdEnvio(), 'REALIZADO'))).toMatchObject({ status: 404, providerCode: 'PagamentoNaoEncontrado' });
    const devolvido = await raw('POST', `/sim/pagamentos/${idEnvio}/status`, { status: 'DEVOLVIDO' });
    expect(devolvido.status).toBe(400);
    expect(await devolvido.json()).toMatchObject({ violacoes: [{ propriedade: 'status' }] });
  });

  it('follows x-simulated-now: solicitacao, the end-to-end id and liquidacao are at the requested instant', async () => {
    const ahead = new Date(Date.parse(`${inDays(40)}T15:00:00Z`));
    const idEnvio = newIdEnvio();
    const created = await bank.at(ahead).createPayout(idEnvio, toKey('11222333000181'));
    expect(created.horario.solicitacao).toBe(ahead.toISOString());
    expect(created.endToEndId.slice(9, 21)).toBe(ahead.toISOString().slice(0, 16).replace(/[-T:]/g, ''));
    // Settled by real time all the same (the sandbox is not left waiting 40 days), on the payout's own timeline.
    const done = await eventually(
      () => bank.getPayout(idEnvio),
      (p) => p.status === 'REALIZADO',
    );
    expect(done.horario.liquidacao).toBe(new Date(ahead.getTime() + SETTLE_MS).toISOString());

    const other = newIdEnvio();
    await bank.at(ahead).createPayout(other, toAccount());
    const later = new Date(ahead.getTime() + 3_600_000);
    expect((await payer.at(later).setPayoutStatus(other, 'REALIZADO')).horario.liquidacao).toBe(later.toISOString());
  });

  it('keeps each token’s payouts apart', async () => {
    const idEnvio = newIdEnvio();
    const mine = await bank.createPayout(idEnvio, toKey());
    const sandbox = new PixBankClient(baseUrl, { token: `sandbox-${newTxid()}` });
    try {
      expect(await refusalOf(sandbox.getPayout(idEnvio))).toMatchObject({ status: 404 });
      const theirs = await sandbox.createPayout(idEnvio, toAccount()); // the same idEnvio is another payout for another client
      expect(theirs.endToEndId).not.toBe(mine.endToEndId);
      expect(theirs.valor).toBe('1500.00');
      expect(await refusalOf(sandbox.getPayoutWebhook())).toMatchObject({ status: 404 });
    } finally {
      await sandbox.close();
    }
  });

  it('configures, reads and deletes the payout webhook; refuses a URL that is not one', async () => {
    const other = new PixBankClient(baseUrl, { token: `webhook-${newTxid()}` });
    try {
      expect(await refusalOf(other.configurePayoutWebhook('not a url'))).toMatchObject({
        status: 400,
        providerCode: 'WebhookPagamentosOperacaoInvalida',
        violations: [{ property: 'webhookUrl' }],
      });
      await other.configurePayoutWebhook('http://127.0.0.1:9/hooks');
      expect(await other.getPayoutWebhook()).toEqual({ webhookUrl: 'http://127.0.0.1:9/hooks', criacao: expect.any(String) });
      await other.deletePayoutWebhook();
      expect(await refusalOf(other.getPayoutWebhook())).toMatchObject({ status: 404, providerCode: 'WebhookNaoEncontrado' });
    } finally {
      await other.close();
    }
  });

  it('loses nothing to a restart: a payout due while the simulator was down settles when it starts, and is pushed', async () => {
    const idEnvio = newIdEnvio();
    await bank.createPayout(idEnvio, toKey('+5521987654321'));
    await stopSimulator();
    await sleep(SETTLE_MS + 200);
    await startSimulator(); // a new port: the clients follow it
    const done = await eventually(
      () => bank.getPayout(idEnvio),
      (p) => p.status === 'REALIZADO',
    );
    expect(done.status).toBe('REALIZADO');
    const pushed = await eventually(
      () => receiver.payout(idEnvio),
      (p) => p.some((x) => x.pagamento.status === 'REALIZADO'),
    );
    // (the creation's push may have been cut short by the stop: deliveries are kept in memory only)
    expect(pushed.map((p) => p.pagamento.status).slice(-1)).toEqual(['REALIZADO']);
  });
});
