import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Refusal, RefusalException } from '@pixauto/errors';
import { PixBankClient, SimulatedPayer } from '@pixauto/bank';
import { eventually } from '@pixauto/testing';
import type { CobRNotification, CobRSolicitada, PoliticaRetentativa, WebhookCobRCallback, CobSolicitada } from '@pixauto/bank';
import { createSimulatorApp } from './app';
import { SimulatorConfig, simulatorConfig } from './config';

// Recurring charges (cobr) through real HTTP: every PixBankClient and SimulatedPayer method for them, against the
// bank simulator started in-process on a free port with a throw-away database on the real PostgreSQL server, as in
// bank-client.int.spec.ts; the /cobr callbacks reach a tiny receiver on 127.0.0.1.

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `pixauto_test_cobr_${randomBytes(6).toString('hex')}`;

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

  /** The cobr notifications about one charge, in the order they arrived. */
  chargeNotifications(txid: string): CobRNotification[] {
    return this.calls.flatMap((call) => (call.body as Partial<WebhookCobRCallback>).cobsr ?? []).filter((cobr) => cobr.txid === txid);
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

beforeAll(async () => {
  config = {
    ...simulatorConfig({}),
    databaseName,
    webhookRetryDelaysMs: [100, 200],
    recurringChargeSweep: { everyMs: 100, batchSize: 100, maxBatchesPerRun: 10 },
  };
  app = await createSimulatorApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  bank = new PixBankClient(baseUrl, { token: 'production-token' });
  payer = new SimulatedPayer(baseUrl, { token: 'production-token' });
  await receiver.start();
  await bank.configureRecurringChargeWebhook(receiver.url);
});

afterAll(async () => {
  await bank?.close();
  await payer?.close();
  await app?.close();
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

/** The one violation's reason of a refusal. */
const reasonOf = async (call: Promise<unknown>): Promise<string | undefined> => {
  const refusal = await refusalOf(call);
  expect(refusal).toMatchObject({ kind: 'provider', status: 400, providerCode: 'CobROperacaoInvalida' });
  return refusal.kind === 'provider' ? refusal.violations?.[0]?.reason : undefined;
};

const today = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const inDays = (days: number): string => new Date(Date.parse(`${today()}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** Noon in Brasília, `days` from today: a sandbox test clock that runs ahead. */
const noonIn = (days: number): Date => new Date(`${inDays(days)}T12:00:00-03:00`);
const newTxid = (): string => randomBytes(16).toString('hex');

/** A recurrence the payer has approved by QR (journey 2). */
async function approvedRecurrence(politicaRetentativa: PoliticaRetentativa, dataInicial = inDays(1)): Promise<string> {
  const rec = await bank.createRecurrence({
    vinculo: { contrato: `ctr-${randomBytes(4).toString('hex')}`, devedor: { cpf: '52998224725', nome: 'Fulano de Tal' }, objeto: 'Plano mensal' },
    calendario: { dataInicial, periodicidade: 'MENSAL' },
    valor: { valorRec: '106.07' },
    politicaRetentativa,
  });
  await payer.authorizeRecurrence(rec.idRec);
  return rec.idRec;
}

const cobrBody = (idRec: string, dataDeVencimento: string, overrides: Partial<CobRSolicitada> = {}): CobRSolicitada => ({
  idRec,
  infoAdicional: 'Plano mensal',
  calendario: { dataDeVencimento },
  valor: { original: '106.07' },
  ajusteDiaUtil: true,
  devedor: { cep: '89256140', cidade: 'Uberlândia', email: 'sebastiao.tavares@mail.com', logradouro: 'Alameda Franco 1056', uf: 'MG' },
  recebedor: { agencia: '9708', conta: '012682', tipoConta: 'CORRENTE' },
  ...overrides,
});

/** A new charge of a new approved recurrence, due in `days` days. */
async function newCharge(politica: PoliticaRetentativa, days = 1): Promise<{ idRec: string; txid: string }> {
  const idRec = await approvedRecurrence(politica);
  const txid = newTxid();
  await bank.createRecurringCharge(txid, cobrBody(idRec, inDays(days)));
  return { idRec, txid };
}

describe('PUT and GET /cobr/{txid}', () => {
  it('creates the charge ATIVA with its scheduled attempt; GET shows it; the webhook hears it', async () => {
    const idRec = await approvedRecurrence('PERMITE_3R_7D');
    const txid = newTxid();
    const created = await bank.createRecurringCharge(txid, cobrBody(idRec, inDays(1)));
    expect(created).toMatchObject({
      idRec,
      txid,
      infoAdicional: 'Plano mensal',
      calendario: { criacao: today(), dataDeVencimento: inDays(1) },
      valor: { original: '106.07' },
      ajusteDiaUtil: true,
      recebedor: { cnpj: config.receiver.cnpj, nome: config.receiver.nome, agencia: '9708', conta: '012682', tipoConta: 'CORRENTE' },
      devedor: { cep: '89256140', uf: 'MG' },
      status: 'ATIVA',
    });

    const read = await bank.getRecurringCharge(txid);
    expect(read).toMatchObject({ ...created, politicaRetentativa: 'PERMITE_3R_7D' });
    expect(read.atualizacao.map((a) => a.status)).toEqual(['CRIADA', 'ATIVA']);
    expect(read.tentativas).toEqual([
      {
        dataLiquidacao: inDays(1),
        tipo: 'AGND',
        status: 'AGENDADA',
        endToEndId: expect.stringMatching(/^E87654321\d{12}[a-zA-Z0-9]{11}$/),
        atualizacao: [
          { status: 'SOLICITADA', data: expect.any(String) },
          { status: 'AGENDADA', data: expect.any(String) },
        ],
      },
    ]);
    expect(read.pix).toBeUndefined();

    const notified = await eventually(
      async () => receiver.chargeNotifications(txid),
      (n) => n.length > 0,
    );
    expect(notified).toEqual([{ idRec, txid, status: 'ATIVA', atualizacao: read.atualizacao, tentativas: read.tentativas }]);
    expect(receiver.calls.find((call) => (call.body as WebhookCobRCallback).cobsr?.[0]?.txid === txid)?.path).toBe('/hooks/bank/cobr');
  });

  it('refuses a txid in use (also by an immediate charge), a past due date, a bad txid, and recurrences that cannot be charged', async () => {
    const idRec = await approvedRecurrence('NAO_PERMITE');
    const txid = newTxid();
    await bank.createRecurringCharge(txid, cobrBody(idRec, inDays(1)));
    expect(await reasonOf(bank.createRecurringCharge(txid, cobrBody(idRec, inDays(40))))).toBe('O campo cobr.txid encontra-se em uso.');
    const immediate = newTxid();
    await bank.createImmediateCharge(immediate, immediateCharge({ valor: { original: '1.00' } }));
    expect(await reasonOf(bank.createRecurringCharge(immediate, cobrBody(idRec, inDays(40))))).toBe('O campo cobr.txid encontra-se em uso.');

    expect(await refusalOf(bank.createRecurringCharge(newTxid(), cobrBody(idRec, inDays(-1))))).toMatchObject({
      status: 400,
      providerCode: 'CobROperacaoInvalida',
      message: 'O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.',
      violations: [{ property: 'cobr.calendario.dataDeVencimento' }],
    });
    expect(await refusalOf(bank.createRecurringCharge('short', cobrBody(idRec, inDays(40))))).toMatchObject({ violations: [{ property: 'cobr.txid' }] });

    expect(await reasonOf(bank.createRecurringCharge(newTxid(), cobrBody('RN1234567820250101aaaaaaaaaaa', inDays(1))))).toBe(
      'O campo cobr.idRec não corresponde a uma recorrência existente.',
    );
    const created = await bank.createRecurrence({
      vinculo: { contrato: 'c-criada', devedor: { cpf: '52998224725', nome: 'Fulano' } },
      calendario: { dataInicial: inDays(1), periodicidade: 'MENSAL' },
      politicaRetentativa: 'NAO_PERMITE',
    });
    expect(await reasonOf(bank.createRecurringCharge(newTxid(), cobrBody(created.idRec, inDays(1))))).toBe(
      'A recorrência referenciada por cobr.idRec encontra-se com o status CRIADA; somente uma recorrência APROVADA pode ser cobrada.',
    );
  });

  it('answers 404 CobRNaoEncontrado for an unknown txid and for another client’s charge', async () => {
    const { txid } = await newCharge('NAO_PERMITE');
    expect(await refusalOf(bank.getRecurringCharge(newTxid()))).toMatchObject({
      status: 404,
      providerCode: 'CobRNaoEncontrado',
      message: 'Cobrança não encontrada para o txid informado.',
    });
    const other = new PixBankClient(baseUrl, { token: 'sandbox-token' });
    try {
      expect(await refusalOf(other.getRecurringCharge(txid))).toMatchObject({ status: 404, providerCode: 'CobRNaoEncontrado' });
      expect(await refusalOf(other.cancelRecurringCharge(txid))).toMatchObject({ status: 404, providerCode: 'CobRNaoEncontrado' });
      expect(await refusalOf(other.retryRecurringCharge(txid, inDays(2)))).toMatchObject({ status: 404, providerCode: 'CobRNaoEncontrado' });
    } finally {
      await other.close();
    }
  });
});

describe('one live charge per recurrence and cycle', () => {
  it('lets exactly one of concurrent PUTs for one cycle win; another cycle, or the same one after a cancellation, is free', async () => {
    const idRec = await approvedRecurrence('NAO_PERMITE', inDays(1)); // monthly: cycle 0 runs from inDays(1) for a month
    const txids = Array.from({ length: 5 }, newTxid);
    const outcomes = await Promise.allSettled(txids.map((txid, i) => bank.createRecurringCharge(txid, cobrBody(idRec, inDays(1 + i)))));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
      expect(lost.reason).toBeInstanceOf(RefusalException);
      expect((lost.reason as RefusalException).refusal).toMatchObject({
        status: 400,
        providerCode: 'CobROperacaoInvalida',
        message: 'Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.',
      });
    }

    expect((await bank.createRecurringCharge(newTxid(), cobrBody(idRec, inDays(45)))).status).toBe('ATIVA'); // the next cycle
    const winner = (won[0] as PromiseFulfilledResult<{ txid: string }>).value.txid;
    await bank.cancelRecurringCharge(winner);
    expect((await bank.createRecurringCharge(newTxid(), cobrBody(idRec, inDays(3)))).status).toBe('ATIVA');
  });

  it('is held by a partial unique index too, and one txid goes to one of two recurrences PUT at once', async () => {
    const { txid } = await newCharge('NAO_PERMITE', 2);
    const database = new Client({ connectionString: serverUrl.replace(/\/[^/]*$/, `/${databaseName}`) });
    await database.connect();
    try {
      const copy = `INSERT INTO recurring_charges (client, txid, id_rec, status, cycle, record, created_at)
                    SELECT client, txid || 'x', id_rec, $2, cycle, record, created_at FROM recurring_charges WHERE txid = $1`;
      await expect(database.query(copy, [txid, 'ATIVA'])).rejects.toMatchObject({ code: '23505', constraint: 'recurring_charges_one_per_cycle' });
      await expect(database.query(copy, [txid, 'CANCELADA'])).resolves.toMatchObject({ rowCount: 1 });
    } finally {
      await database.end();
    }

    const [first, second] = await Promise.all([approvedRecurrence('NAO_PERMITE'), approvedRecurrence('NAO_PERMITE')]);
    const shared = newTxid();
    const outcomes = await Promise.allSettled([first, second].map((idRec) => bank.createRecurringCharge(shared, cobrBody(idRec, inDays(2)))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const lost = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect((lost?.reason as RefusalException).refusal).toMatchObject({ status: 400, message: 'O campo cobr.txid encontra-se em uso.' });
  });

  it('a rejected charge frees its cycle too', async () => {
    const { idRec, txid } = await newCharge('NAO_PERMITE', 2);
    expect((await payer.failRecurringCharge(txid)).status).toBe('REJEITADA');
    expect((await bank.createRecurringCharge(newTxid(), cobrBody(idRec, inDays(3)))).status).toBe('ATIVA');
  });
});

describe('PUTs that arrive together', () => {
  it('are created together, each answered on its own: created, or refused for what is wrong with it alone', async () => {
    const recs = await Promise.all(Array.from({ length: 8 }, () => approvedRecurrence('NAO_PERMITE')));
    const taken = await newCharge('NAO_PERMITE', 2);
    const good = recs.map((idRec) => ({ idRec, txid: newTxid() }));
    const [noSuchRec, cycleTakenTxid] = [newTxid(), newTxid()];
    const puts = [
      ...good.map(({ idRec, txid }) => bank.createRecurringCharge(txid, cobrBody(idRec, inDays(2)))),
      bank.createRecurringCharge(noSuchRec, cobrBody('RN1234567820250101unknown1111', inDays(2))), // no such recurrence
      bank.createRecurringCharge(taken.txid, cobrBody(recs[0], inDays(40))), // a txid in use
      bank.createRecurringCharge(cycleTakenTxid, cobrBody(taken.idRec, inDays(3))), // a cycle already charged
    ];
    const outcomes = await Promise.allSettled(puts);

    expect(outcomes.slice(0, 8).map((o) => (o.status === 'fulfilled' ? [o.value.txid, o.value.status] : o.reason))).toEqual(
      good.map(({ txid }) => [txid, 'ATIVA']),
    );
    const reasons = await Promise.all(outcomes.slice(8).map((o) => reasonOf(o.status === 'rejected' ? Promise.reject(o.reason) : Promise.resolve(o.value))));
    expect(reasons).toEqual([
      'O campo cobr.idRec não corresponde a uma recorrência existente.',
      'O campo cobr.txid encontra-se em uso.',
      'Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.',
    ]);
    for (const { txid, idRec } of good) expect(await bank.getRecurringCharge(txid)).toMatchObject({ idRec, status: 'ATIVA' });
    // The refused ones left nothing: no charge under their txids, the txid in use still its first charge's.
    for (const txid of [noSuchRec, cycleTakenTxid]) expect(await refusalOf(bank.getRecurringCharge(txid))).toMatchObject({ status: 404 });
    expect(await bank.getRecurringCharge(taken.txid)).toMatchObject({ idRec: taken.idRec });
    // The webhook hears each creation once, however the callbacks grouped them.
    await eventually(
      async () => good.map(({ txid }) => receiver.chargeNotifications(txid).length),
      (counts) => counts.every((n) => n === 1),
    );
  });
});

describe('PATCH /cobr/{txid}', () => {
  it('cancels before the first attempt’s date: charge and attempt CANCELADA (SLCR), pushed; not twice', async () => {
    const { txid } = await newCharge('PERMITE_3R_7D', 2);
    const cancelled = await bank.cancelRecurringCharge(txid);
    expect(cancelled).toMatchObject({
      status: 'CANCELADA',
      encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: expect.any(String) } },
      tentativas: [{ tipo: 'AGND', status: 'CANCELADA' }],
    });
    expect(await reasonOf(bank.cancelRecurringCharge(txid))).toBe(
      'A cobrança encontra-se com o status CANCELADA; somente uma cobrança CRIADA ou ATIVA pode ser cancelada.',
    );
    const notified = await eventually(
      async () => receiver.chargeNotifications(txid),
      (n) => n.some((c) => c.status === 'CANCELADA'),
    );
    expect(notified.map((n) => n.status).sort()).toEqual(['ATIVA', 'CANCELADA']);
  });

  it('refuses on or after the first attempt’s date (a test clock at the due date)', async () => {
    const { txid } = await newCharge('NAO_PERMITE', 2);
    const text = 'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.';
    expect(await reasonOf(bank.at(noonIn(2)).cancelRecurringCharge(txid))).toBe(text);
    expect(await reasonOf(bank.at(noonIn(3)).cancelRecurringCharge(txid))).toBe(text);
    expect((await bank.getRecurringCharge(txid)).status).toBe('ATIVA');
  });

  it('takes status CANCELADA only', async () => {
    const { txid } = await newCharge('NAO_PERMITE', 2);
    const response = await fetch(`${baseUrl}/cobr/${txid}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer production-token', 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'CONCLUIDA' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida',
      violacoes: [{ propriedade: 'cobr.status' }],
    });
  });

  it('cancelling the recurrence leaves its charges as they are', async () => {
    const { idRec, txid } = await newCharge('NAO_PERMITE', 2);
    expect((await bank.cancelRecurrence(idRec)).status).toBe('CANCELADA');
    expect((await bank.getRecurringCharge(txid)).status).toBe('ATIVA');
  });
});

describe('POST /cobr/{txid}/retentativa/{data}', () => {
  it('refuses under a policy that allows no retry, whatever else', async () => {
    const { txid } = await newCharge('NAO_PERMITE', 1);
    expect(await refusalOf(bank.retryRecurringCharge(txid, inDays(2)))).toMatchObject({
      status: 400,
      providerCode: 'CobROperacaoInvalida',
      message: 'A política configurada na recorrência não permite retentativa de cobrança.',
    });
  });

  it('refuses a charge that is not ATIVA, and one with a pending attempt', async () => {
    const { txid } = await newCharge('PERMITE_3R_7D', 1);
    expect(await reasonOf(bank.retryRecurringCharge(txid, inDays(2)))).toBe('Existe uma tentativa com status SOLICITADA ou AGENDADA.');
    await bank.cancelRecurringCharge(txid);
    expect(await reasonOf(bank.retryRecurringCharge(txid, inDays(2)))).toBe(
      'A cobrança encontra-se com o status CANCELADA; somente uma cobrança ATIVA pode receber retentativa.',
    );
  });

  it('refuses a date that is not one, not in the future, the due date itself or outside the 7 days after it; allows 3 retries', async () => {
    const { txid } = await newCharge('PERMITE_3R_7D', 1); // due tomorrow
    const failed = await payer.failRecurringCharge(txid);
    expect(failed).toMatchObject({ status: 'ATIVA', tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AM02', descricao: expect.any(String) } }] });

    expect(await reasonOf(bank.retryRecurringCharge(txid, 'amanha'))).toBe('O parâmetro data não respeita o schema.');
    expect(await reasonOf(bank.retryRecurringCharge(txid, `${inDays(2).slice(0, 8)}32`))).toBe('O parâmetro data não respeita o schema.');
    expect(await reasonOf(bank.retryRecurringCharge(txid, today()))).toBe('O parâmetro data não corresponde a uma data futura.');
    const window = 'A data da retentativa deve estar entre 1 e 7 dias após a data de vencimento da cobrança.';
    expect(await reasonOf(bank.retryRecurringCharge(txid, inDays(1)))).toBe(window);
    expect(await reasonOf(bank.retryRecurringCharge(txid, inDays(9)))).toBe(window);

    const retried = await bank.retryRecurringCharge(txid, inDays(2));
    expect(retried.status).toBe('ATIVA');
    expect(retried.tentativas?.map((t) => [t.tipo, t.status, t.dataLiquidacao])).toEqual([
      ['AGND', 'REJEITADA', inDays(1)],
      ['NTAG', 'AGENDADA', inDays(2)],
    ]);
    expect(retried.tentativas?.[1].endToEndId).not.toBe(retried.tentativas?.[0].endToEndId);
    for (const day of [3, 4]) {
      await payer.failRecurringCharge(txid);
      await bank.retryRecurringCharge(txid, inDays(day));
    }
    await payer.failRecurringCharge(txid);
    expect(await reasonOf(bank.retryRecurringCharge(txid, inDays(5)))).toBe('A cobrança já recebeu o número máximo de 3 retentativas.');
    expect((await bank.getRecurringCharge(txid)).tentativas).toHaveLength(4);

    const notified = await eventually(
      async () => receiver.chargeNotifications(txid),
      (n) => n.length >= 8,
    );
    // One push per change (creation, then each refusal and retry); deliveries run side by side, so in any order.
    expect(notified.map((n) => n.tentativas?.length).sort()).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
  });
});

describe('/sim/cobr: the payer’s bank', () => {
  it('pays the pending attempt now, whatever its date: PAGA, CONCLUIDA, a pix; nothing left to pay after', async () => {
    const { txid } = await newCharge('PERMITE_3R_7D', 5);
    const paid = await payer.payRecurringCharge(txid);
    expect(paid).toMatchObject({ status: 'CONCLUIDA', tentativas: [{ status: 'PAGA' }] });
    expect(paid.pix).toEqual([{ endToEndId: paid.tentativas?.[0].endToEndId, txid, valor: '106.07', horario: expect.any(String) }]);
    expect(paid.atualizacao.map((a) => a.status)).toEqual(['CRIADA', 'ATIVA', 'CONCLUIDA']);
    expect(await reasonOf(payer.payRecurringCharge(txid))).toBe('A cobrança não possui tentativa com status SOLICITADA ou AGENDADA a liquidar.');
    expect(await reasonOf(payer.failRecurringCharge(txid))).toBe('A cobrança não possui tentativa com status SOLICITADA ou AGENDADA a liquidar.');
    const notified = await eventually(
      async () => receiver.chargeNotifications(txid),
      (n) => n.some((c) => c.status === 'CONCLUIDA'),
    );
    expect(notified.find((n) => n.status === 'CONCLUIDA')).toMatchObject({ pix: paid.pix, tentativas: paid.tentativas });
  });

  it('refuses the debit: REJEITADA with AM02 under NAO_PERMITE; a retry paid after a refusal under PERMITE_3R_7D', async () => {
    const notAllowed = await newCharge('NAO_PERMITE', 1);
    const rejected = await payer.failRecurringCharge(notAllowed.txid);
    expect(rejected).toMatchObject({
      status: 'REJEITADA',
      encerramento: { rejeicao: { codigo: 'AM02' } },
      tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AM02' } }],
    });

    const allowed = await newCharge('PERMITE_3R_7D', 1);
    await payer.failRecurringCharge(allowed.txid);
    await bank.retryRecurringCharge(allowed.txid, inDays(3));
    const paid = await payer.payRecurringCharge(allowed.txid);
    expect(paid.status).toBe('CONCLUIDA');
    expect(paid.tentativas?.map((t) => t.status)).toEqual(['REJEITADA', 'PAGA']);
    expect(paid.pix?.[0].endToEndId).toBe(paid.tentativas?.[1].endToEndId);
  });

  it('answers 404 for an unknown charge', async () => {
    expect(await refusalOf(payer.payRecurringCharge(newTxid()))).toMatchObject({ status: 404, providerCode: 'CobRNaoEncontrado' });
    expect(await refusalOf(payer.failRecurringCharge(newTxid()))).toMatchObject({ status: 404, providerCode: 'CobRNaoEncontrado' });
  });
});

describe('x-simulated-now', () => {
  it('a retry date in the future of real time but in the past of the simulated now is refused', async () => {
    const { txid } = await newCharge('PERMITE_3R_7D', 1);
    await payer.at(noonIn(1)).failRecurringCharge(txid);
    expect(await reasonOf(bank.at(noonIn(5)).retryRecurringCharge(txid, inDays(3)))).toBe('O parâmetro data não corresponde a uma data futura.');
    expect((await bank.retryRecurringCharge(txid, inDays(3))).tentativas?.at(-1)).toMatchObject({ status: 'AGENDADA', dataLiquidacao: inDays(3) });
  });

  it('dates a charge, its history and its payment at the simulated now; a due date before it is refused', async () => {
    const idRec = await approvedRecurrence('NAO_PERMITE', inDays(1));
    const ahead = bank.at(noonIn(10));
    expect(await reasonOf(ahead.createRecurringCharge(newTxid(), cobrBody(idRec, inDays(5))))).toBe(
      'O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.',
    );
    const txid = newTxid();
    const created = await ahead.createRecurringCharge(txid, cobrBody(idRec, inDays(12)));
    expect(created.calendario.criacao).toBe(inDays(10));
    const paid = await payer.at(noonIn(12)).payRecurringCharge(txid);
    expect(paid.pix?.[0].horario).toBe(noonIn(12).toISOString());
    expect(paid.atualizacao.map((a) => a.data)).toEqual([noonIn(10).toISOString(), noonIn(10).toISOString(), noonIn(12).toISOString()]);
  });

  it('never takes the bank back in time, and a view shares the pool it never closes', async () => {
    const idRec = await approvedRecurrence('NAO_PERMITE', inDays(1));
    const past = bank.at(noonIn(-30));
    const created = await past.createRecurringCharge(newTxid(), cobrBody(idRec, inDays(1)));
    expect(created.calendario.criacao).toBe(today());
    await past.close();
    await payer.at(noonIn(3)).close();
    expect((await bank.getRecurringCharge(created.txid)).status).toBe('ATIVA');
    expect((await payer.payRecurringCharge(created.txid)).status).toBe('CONCLUIDA');
  });

  it('ignores a header that is not an instant', async () => {
    const idRec = await approvedRecurrence('NAO_PERMITE', inDays(1));
    const response = await fetch(`${baseUrl}/cobr/${newTxid()}`, {
      method: 'PUT',
      headers: { authorization: 'Bearer production-token', 'content-type': 'application/json', 'x-simulated-now': 'next week' },
      body: JSON.stringify(cobrBody(idRec, inDays(1))),
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { calendario: { criacao: string } }).calendario.criacao).toBe(today());
  });
});

describe('the sweeper', () => {
  it('settles an attempt scheduled for today by itself (real time): PAGA, CONCLUIDA, pushed', async () => {
    const idRec = await approvedRecurrence('NAO_PERMITE', today());
    const txid = newTxid();
    await bank.createRecurringCharge(txid, cobrBody(idRec, today()));
    const settled = await eventually(
      () => bank.getRecurringCharge(txid),
      (cobr) => cobr.status === 'CONCLUIDA',
    );
    expect(settled).toMatchObject({ status: 'CONCLUIDA', tentativas: [{ status: 'PAGA', dataLiquidacao: today() }], pix: [{ txid, valor: '106.07' }] });
    const notified = await eventually(
      async () => receiver.chargeNotifications(txid),
      (n) => n.some((c) => c.status === 'CONCLUIDA'),
    );
    expect(notified.map((n) => n.status)).toContain('CONCLUIDA');
  });

  it('leaves attempts scheduled for a later day alone', async () => {
    const { txid } = await newCharge('NAO_PERMITE', 1);
    // A charge due today, created after it: the sweep that settles this one saw the other one too.
    const dueToday = newTxid();
    await bank.createRecurringCharge(dueToday, cobrBody(await approvedRecurrence('NAO_PERMITE', today()), today()));
    await eventually(
      () => bank.getRecurringCharge(dueToday),
      (cobr) => cobr.status === 'CONCLUIDA',
      { what: 'the charge due today settled by the sweeper' },
    );
    expect((await bank.getRecurringCharge(txid)).tentativas?.[0].status).toBe('AGENDADA');
  });
});

describe('PUT, GET and DELETE /webhookcobr', () => {
  it('configures, reads and deletes the recurring charge webhook apart from the recurrence one; refuses a URL that is not one', async () => {
    const other = new PixBankClient(baseUrl, { token: `webhook-${newTxid()}` });
    try {
      expect(await refusalOf(other.configureRecurringChargeWebhook('not a url'))).toMatchObject({
        status: 400,
        providerCode: 'WebhookCobROperacaoInvalida',
        violations: [{ property: 'webhookUrl' }],
      });
      await other.configureRecurringChargeWebhook('http://127.0.0.1:9/hooks');
      expect(await other.getRecurringChargeWebhook()).toEqual({ webhookUrl: 'http://127.0.0.1:9/hooks', criacao: expect.any(String) });
      expect(await refusalOf(other.getRecurrenceWebhook())).toMatchObject({ status: 404 });
      await other.deleteRecurringChargeWebhook();
      expect(await refusalOf(other.getRecurringChargeWebhook())).toMatchObject({ status: 404, providerCode: 'WebhookNaoEncontrado' });
      expect(await refusalOf(other.deleteRecurringChargeWebhook())).toMatchObject({ status: 404 });
    } finally {
      await other.close();
    }
  });
});
