import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Refusal, RefusalException } from '@pixauto/errors';
import { fromBankJourney, fromBankRecurrenceStatus, fromBankSolicitationStatus, PixBankClient, SimulatedPayer } from '@pixauto/bank';
import type { RecSolicitada, SolicRecCompleta, WebhookRecCallback, CobSolicitada } from '@pixauto/bank';
import { eventually, until } from '@pixauto/testing';
import { createSimulatorApp } from './app';
import { SimulatorConfig, simulatorConfig } from './config';
import { crc16 } from './domain/br-code';

// Every PixBankClient method through real HTTP against the bank simulator, started in-process on a free port
// with a throw-away database on the real PostgreSQL server; webhooks reach a tiny receiver on 127.0.0.1.

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `pixauto_test_bank_${randomBytes(6).toString('hex')}`;

async function onServer(sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The webhook receiver: records every callback; answers 500 to the first delivery of the ids it is told to fail once. */
class Receiver {
  readonly calls: WebhookRecCallback[] = [];
  readonly paths: string[] = [];
  readonly failOnce = new Set<string>();
  private server!: Server;
  url!: string;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void readBody(request).then((text) => {
        const body = JSON.parse(text) as WebhookRecCallback;
        this.paths.push(request.url ?? '');
        if ((body.recs ?? []).some((rec) => this.failOnce.delete(rec.idRec))) {
          response.writeHead(500).end();
          return;
        }
        this.calls.push(body);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/bank/`;
  }

  statusesOf(idRec: string): string[] {
    return this.calls
      .flatMap((call) => call.recs)
      .filter((rec) => rec.idRec === idRec)
      .map((rec) => rec.status);
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
}

beforeAll(async () => {
  config = { ...simulatorConfig({}), databaseName, webhookRetryDelaysMs: [100, 200] };
  await startSimulator();
  bank = new PixBankClient(baseUrl, { token: 'production-token' });
  payer = new SimulatedPayer(baseUrl, { token: 'production-token' });
  await receiver.start();
  await bank.configureRecurrenceWebhook(receiver.url);
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

const today = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const inDays = (days: number): string => new Date(Date.parse(`${today()}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const newTxid = (): string => randomBytes(16).toString('hex');

const recurrenceBody = (overrides: Partial<RecSolicitada> = {}): RecSolicitada => ({
  vinculo: { contrato: `ctr-${randomBytes(4).toString('hex')}`, devedor: { cpf: '52998224725', nome: 'Fulano de Tal' }, objeto: 'Assinatura mensal' },
  calendario: { dataInicial: inDays(10), periodicidade: 'MENSAL' },
  valor: { valorRec: '35.00' },
  politicaRetentativa: 'NAO_PERMITE',
  ...overrides,
});

const destinatario = (ispbParticipante = '91193552') => ({ agencia: '2569', conta: '550689', cpf: '11144477735', ispbParticipante });
const expiresIn = (ms: number): string => new Date(Date.now() + ms).toISOString();

/** A pix copy-and-paste code whose closing CRC is right. */
const hasValidCrc = (code: string): boolean => crc16(code.slice(0, -4)) === code.slice(-4);

describe('health', () => {
  it('answers ok', async () => {
    const response = await fetch(`${baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('locations and recurrences', () => {
  it('creates a location, a recurrence bound to it, and shows the journey 2 QR', async () => {
    const loc = await bank.createRecurrenceLocation();
    expect(loc).toEqual({ id: expect.any(Number), location: expect.stringMatching(/\/qr\/v2\/rec\/[0-9a-f]{32}$/), criacao: expect.any(String) });

    const rec = await bank.createRecurrence(recurrenceBody({ loc: loc.id }));
    expect(rec.idRec).toMatch(/^RN12345678\d{8}[a-zA-Z0-9]{11}$/);
    expect(rec).toMatchObject({
      status: 'CRIADA',
      valor: { valorRec: '35.00' },
      politicaRetentativa: 'NAO_PERMITE',
      recebedor: { cnpj: config.receiver.cnpj, nome: config.receiver.nome },
      loc: { id: loc.id, idRec: rec.idRec },
      ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
      atualizacao: [{ status: 'CRIADA', data: expect.any(String) }],
    });
    expect(await bank.getRecurrenceLocation(loc.id)).toMatchObject({ id: loc.id, idRec: rec.idRec });

    const read = await bank.getRecurrence(rec.idRec);
    expect(read.dadosQR?.jornada).toBe('JORNADA_2');
    expect(read.dadosQR?.pixCopiaECola).toContain(loc.location);
    expect(hasValidCrc(read.dadosQR?.pixCopiaECola ?? '')).toBe(true);
    expect(fromBankRecurrenceStatus(read.status)).toBe('CREATED');
  });

  it('marks a recurrence that allows retries with RR', async () => {
    const rec = await bank.createRecurrence(
      recurrenceBody({ politicaRetentativa: 'PERMITE_3R_7D', calendario: { dataInicial: inDays(3), dataFinal: inDays(400), periodicidade: 'SEMANAL' } }),
    );
    expect(rec.idRec.startsWith('RR')).toBe(true);
    expect(rec.calendario).toEqual({ dataInicial: inDays(3), dataFinal: inDays(400), periodicidade: 'SEMANAL' });
  });

  it('refuses a bad CPF as a ProviderError naming the BCB property', async () => {
    const refusal = await refusalOf(bank.createRecurrence(recurrenceBody({ vinculo: { contrato: 'c1', devedor: { cpf: '52998224724', nome: 'X' } } })));
    expect(refusal).toEqual({
      kind: 'provider',
      status: 400,
      message: 'O campo rec.vinculo.devedor.cpf não é um CPF válido.',
      providerCode: 'RecOperacaoInvalida',
      violations: [{ property: 'rec.vinculo.devedor.cpf', reason: 'O campo rec.vinculo.devedor.cpf não é um CPF válido.' }],
    });
  });

  it('refuses a past first date, an end before the start, and both amounts, all at once', async () => {
    const refusal = await refusalOf(
      bank.createRecurrence(
        recurrenceBody({
          calendario: { dataInicial: inDays(-1), dataFinal: inDays(-5), periodicidade: 'MENSAL' },
          valor: { valorRec: '1.00', valorMinimoRecebedor: '2.00' },
        }),
      ),
    );
    expect(refusal).toMatchObject({ kind: 'provider', status: 400, providerCode: 'RecOperacaoInvalida' });
    expect(refusal.kind === 'provider' && refusal.violations?.map((v) => v.property)).toEqual([
      'rec.calendario.dataInicial',
      'rec.calendario.dataFinal',
      'rec.valor',
    ]);
  });

  it('refuses a location that does not exist or is already used', async () => {
    const missing = await refusalOf(bank.createRecurrence(recurrenceBody({ loc: 987654321 })));
    expect(missing).toMatchObject({ status: 400, message: 'O location referenciado por rec.loc inexiste.' });
    const loc = await bank.createRecurrenceLocation();
    await bank.createRecurrence(recurrenceBody({ loc: loc.id }));
    const used = await refusalOf(bank.createRecurrence(recurrenceBody({ loc: loc.id })));
    expect(used).toMatchObject({ status: 400, message: 'O location referenciado por rec.loc já está sendo utilizado por outra recorrência.' });
  });

  it('answers 404 problem for an unknown idRec and an unknown location', async () => {
    expect(await refusalOf(bank.getRecurrence('RN1234567820250101aaaaaaaaaaa'))).toEqual({
      kind: 'provider',
      status: 404,
      message: 'Recorrência não encontrada para o idRec informado.',
      providerCode: 'RecNaoEncontrada',
      violations: undefined,
    });
    expect(await refusalOf(bank.cancelRecurrence('RN1234567820250101aaaaaaaaaaa'))).toMatchObject({ status: 404, providerCode: 'RecNaoEncontrada' });
    expect(await refusalOf(bank.getRecurrenceLocation(987654321))).toMatchObject({ status: 404, providerCode: 'PayloadLocationRecNaoEncontrado' });
  });

  it('revises the debtor name and cancels once; cancelling again is refused; the webhook hears the cancellation', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    const revised = await bank.reviseRecurrence(rec.idRec, { vinculo: { devedor: { nome: 'Fulano de Tal Junior' } }, calendario: { dataInicial: inDays(20) } });
    expect(revised.vinculo.devedor.nome).toBe('Fulano de Tal Junior');
    expect(revised.calendario.dataInicial).toBe(inDays(20));

    const cancelled = await bank.cancelRecurrence(rec.idRec);
    expect(cancelled).toMatchObject({
      status: 'CANCELADA',
      encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } },
    });
    expect(cancelled.atualizacao.map((a) => a.status)).toEqual(['CRIADA', 'CANCELADA']);
    expect(await refusalOf(bank.cancelRecurrence(rec.idRec))).toMatchObject({
      kind: 'provider',
      status: 400,
      providerCode: 'RecOperacaoInvalida',
      message: 'A recorrência encontra-se expirada, cancelada ou rejeitada.',
    });
    await eventually(
      async () => receiver.statusesOf(rec.idRec),
      (s) => s.length > 0,
    );
    expect(receiver.statusesOf(rec.idRec)).toEqual(['CANCELADA']);
    expect((await bank.getRecurrence(rec.idRec)).dadosQR).toBeUndefined();
  });
});

describe('journey 2 and refusal by QR', () => {
  it('approves by QR with the debtor as payer; refuses by QR', async () => {
    const loc = await bank.createRecurrenceLocation();
    const rec = await bank.createRecurrence(recurrenceBody({ loc: loc.id }));
    const approved = await payer.authorizeRecurrence(rec.idRec);
    expect(approved).toMatchObject({
      status: 'APROVADA',
      ativacao: { tipoJornada: 'JORNADA_2' },
      pagador: { cpf: '52998224725', ispbParticipante: config.payerIspb },
    });
    expect(fromBankJourney(approved.ativacao?.tipoJornada)).toBe('JOURNEY_2');
    expect(await refusalOf(payer.authorizeRecurrence(rec.idRec))).toMatchObject({ status: 400, providerCode: 'RecOperacaoInvalida' });

    const other = await bank.createRecurrence(recurrenceBody());
    const refused = await payer.refuseRecurrence(other.idRec);
    expect(refused).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13' } } });

    await until(() => receiver.statusesOf(other.idRec).length > 0 && receiver.statusesOf(rec.idRec).length > 0);
    expect(receiver.statusesOf(rec.idRec)).toEqual(['APROVADA']);
    expect(receiver.statusesOf(other.idRec)).toEqual(['REJEITADA']);
  });
});

describe('journey 3: recurrence with an immediate charge', () => {
  it('creates the charge, binds it, shows the composite QR, and authorizing pays the charge', async () => {
    const txid = newTxid();
    const cob = await bank.createImmediateCharge(
      txid,
      immediateCharge({
        calendario: { expiracao: 3600 },
        devedor: { cpf: '52998224725', nome: 'Fulano de Tal' },
        valor: { original: '19.90' },
        solicitacaoPagador: 'Assinatura mensal',
      }),
    );
    expect(cob).toMatchObject({
      txid,
      status: 'ATIVA',
      revisao: 0,
      valor: { original: '19.90' },
      calendario: { expiracao: 3600 },
      chave: config.receiver.chave,
    });
    expect(hasValidCrc(cob.pixCopiaECola ?? '')).toBe(true);

    const loc = await bank.createRecurrenceLocation();
    const rec = await bank.createRecurrence(recurrenceBody({ loc: loc.id, ativacao: { dadosJornada: { txid } } }));
    expect(rec.ativacao).toEqual({ tipoJornada: 'AGUARDANDO_DEFINICAO', dadosJornada: { txid } });

    const composite = await bank.getRecurrence(rec.idRec, { txid });
    expect(composite.dadosQR?.jornada).toBe('JORNADA_3');
    expect(composite.dadosQR?.pixCopiaECola).toContain(cob.location as string);
    expect(composite.dadosQR?.pixCopiaECola).toContain(loc.location);
    expect(await refusalOf(bank.getRecurrence(rec.idRec, { txid: newTxid() }))).toMatchObject({ status: 400, providerCode: 'RecConsultaInvalida' });

    const approved = await payer.authorizeRecurrence(rec.idRec);
    expect(approved).toMatchObject({ status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid } } });

    const paid = await bank.getImmediateCharge(txid);
    expect(paid.status).toBe('CONCLUIDA');
    expect(paid.pix).toEqual([
      {
        endToEndId: expect.stringMatching(/^E87654321\d{12}[a-zA-Z0-9]{11}$/),
        txid,
        valor: '19.90',
        chave: config.receiver.chave,
        horario: expect.any(String),
      },
    ]);

    const notified = await eventually(
      async () => receiver.calls.flatMap((c) => c.recs).find((r) => r.idRec === rec.idRec),
      (r) => r !== undefined,
    );
    expect(notified).toMatchObject({ status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid } } });
  });

  it('paying the charge directly approves its recurrence (journey 3)', async () => {
    const txid = newTxid();
    await bank.createImmediateCharge(txid, immediateCharge({ valor: { original: '5.00' } }));
    const rec = await bank.createRecurrence(recurrenceBody({ ativacao: { dadosJornada: { txid } } }));
    expect((await payer.payImmediateCharge(txid)).status).toBe('CONCLUIDA');
    expect(await bank.getRecurrence(rec.idRec)).toMatchObject({ status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3' } });
    expect(await refusalOf(payer.payImmediateCharge(txid))).toMatchObject({ status: 400, providerCode: 'CobOperacaoInvalida' });
  });

  it('revises an ATIVA charge with a second PUT; refuses a bad txid, a zero amount, an unknown charge, and a charge already bound', async () => {
    const txid = newTxid();
    await bank.createImmediateCharge(txid, immediateCharge({ valor: { original: '5.00' } }));
    expect(await bank.createImmediateCharge(txid, immediateCharge({ valor: { original: '6.00' } }))).toMatchObject({ revisao: 1, valor: { original: '6.00' } });
    expect(await refusalOf(bank.createImmediateCharge('short', immediateCharge({ valor: { original: '5.00' } })))).toMatchObject({
      status: 400,
      providerCode: 'CobOperacaoInvalida',
      violations: [{ property: 'cob.txid', reason: expect.any(String) }],
    });
    expect(await refusalOf(bank.createImmediateCharge(newTxid(), immediateCharge({ valor: { original: '0.00' } })))).toMatchObject({
      message: 'O campo cob.valor.original é zero.',
    });
    expect(await refusalOf(bank.getImmediateCharge(newTxid()))).toMatchObject({ status: 404, providerCode: 'CobNaoEncontrado' });
    expect(await refusalOf(bank.createRecurrence(recurrenceBody({ ativacao: { dadosJornada: { txid: newTxid() } } })))).toMatchObject({
      status: 400,
      violations: [{ property: 'rec.ativacao.dadosJornada.txid', reason: expect.any(String) }],
    });
    await bank.createRecurrence(recurrenceBody({ ativacao: { dadosJornada: { txid } } }));
    expect(await refusalOf(bank.createRecurrence(recurrenceBody({ ativacao: { dadosJornada: { txid } } })))).toMatchObject({ status: 400 });
  });

  it('an expired charge cannot be paid, and its recurrence can no longer be authorized with it', async () => {
    const txid = newTxid();
    await bank.createImmediateCharge(txid, immediateCharge({ calendario: { expiracao: 1 }, valor: { original: '5.00' } }));
    const loc = await bank.createRecurrenceLocation();
    const rec = await bank.createRecurrence(recurrenceBody({ loc: loc.id, ativacao: { dadosJornada: { txid } } }));
    await sleep(1100);
    expect(await refusalOf(payer.payImmediateCharge(txid))).toMatchObject({
      status: 400,
      providerCode: 'CobOperacaoInvalida',
      violations: [{ property: 'cob.calendario.expiracao' }],
    });
    expect(await refusalOf(payer.authorizeRecurrence(rec.idRec))).toMatchObject({ status: 400, providerCode: 'RecOperacaoInvalida' });
    expect((await bank.getImmediateCharge(txid)).status).toBe('ATIVA'); // expiry is not a status (CobrancaStatus)
    expect((await bank.getRecurrence(rec.idRec, { txid })).dadosQR).toBeUndefined();
  });
});

describe('journey 1: solicitations', () => {
  const waitFor = (id: string, status: SolicRecCompleta['status']) =>
    eventually(
      () => bank.getSolicitation(id),
      (s) => s.status === status,
    );

  it('travels CRIADA → ENVIADA → RECEBIDA by itself; the payer accepts; the recurrence is APROVADA (journey 1)', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    const created = await bank.createSolicitation({
      idRec: rec.idRec,
      calendario: { dataExpiracaoSolicitacao: expiresIn(3_600_000) },
      destinatario: destinatario(),
    });
    expect(created.idSolicRec).toMatch(/^SC12345678\d{8}[a-zA-Z0-9]{11}$/);
    expect(created).toMatchObject({
      status: 'CRIADA',
      idRec: rec.idRec,
      recPayload: { idRec: rec.idRec, recebedor: { ispbParticipante: config.receiver.ispb } },
    });

    const received = await waitFor(created.idSolicRec, 'RECEBIDA');
    expect(received.atualizacao.map((a) => a.status)).toEqual(['CRIADA', 'ENVIADA', 'RECEBIDA']);
    expect(fromBankSolicitationStatus(received.status)).toEqual({ status: 'RECEIVED', outcome: 'PENDING' });

    const answered = await payer.answerSolicitation(created.idSolicRec, 'ACCEPT');
    expect(answered.status).toBe('ACEITA');
    expect(fromBankSolicitationStatus(answered.status, answered.atualizacao)).toEqual({ status: 'RECEIVED', outcome: 'ACCEPTED' });
    const approved = await bank.getRecurrence(rec.idRec);
    expect(approved).toMatchObject({
      status: 'APROVADA',
      ativacao: { tipoJornada: 'JORNADA_1' },
      pagador: { cpf: '11144477735', ispbParticipante: '91193552' },
    });
    expect(approved.solicitacao?.map((s) => s.status)).toEqual(['ACEITA']);

    expect(await refusalOf(payer.answerSolicitation(created.idSolicRec, 'REJECT'))).toMatchObject({ status: 400, providerCode: 'SolicRecOperacaoInvalida' });
    expect(await refusalOf(bank.cancelSolicitation(created.idSolicRec))).toMatchObject({
      status: 400,
      message: 'Não é possível cancelar uma solicitação de recorrência com o status diferente de CRIADA, ENVIADA ou RECEBIDA.',
    });
    await eventually(
      async () => receiver.statusesOf(rec.idRec),
      (s) => s.length > 0,
    );
    expect(receiver.statusesOf(rec.idRec)).toEqual(['APROVADA']);
  });

  it('the payer rejects: solicitation REJEITADA, recurrence REJEITADA', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    const created = await bank.createSolicitation({
      idRec: rec.idRec,
      calendario: { dataExpiracaoSolicitacao: expiresIn(3_600_000) },
      destinatario: destinatario(),
    });
    await waitFor(created.idSolicRec, 'RECEBIDA');
    expect((await payer.answerSolicitation(created.idSolicRec, 'REJECT')).status).toBe('REJEITADA');
    expect((await bank.getRecurrence(rec.idRec)).status).toBe('REJEITADA');
  });

  it('towards an ISPB starting with 9999 stays ENVIADA; cannot be answered; is cancelled; one open at a time', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    const created = await bank.createSolicitation({
      idRec: rec.idRec,
      calendario: { dataExpiracaoSolicitacao: expiresIn(3_600_000) },
      destinatario: destinatario('99990001'),
    });
    const body = { idRec: rec.idRec, calendario: { dataExpiracaoSolicitacao: expiresIn(3_600_000) }, destinatario: destinatario() };
    expect(await refusalOf(bank.createSolicitation(body))).toMatchObject({
      status: 400,
      message: 'Existe uma solicitação ativa referente ao mesmo solicrec.idRec.',
    });

    await waitFor(created.idSolicRec, 'ENVIADA');
    // One sent after it to a payer that exists is received: this one's time to be received has passed too.
    const another = await bank.createRecurrence(recurrenceBody());
    const later = await bank.createSolicitation({
      idRec: another.idRec,
      calendario: { dataExpiracaoSolicitacao: expiresIn(3_600_000) },
      destinatario: destinatario(),
    });
    await waitFor(later.idSolicRec, 'RECEBIDA');
    const stuck = await bank.getSolicitation(created.idSolicRec);
    expect(stuck.status).toBe('ENVIADA');
    expect(await refusalOf(payer.answerSolicitation(created.idSolicRec, 'ACCEPT'))).toMatchObject({
      kind: 'provider',
      status: 400,
      providerCode: 'SolicRecOperacaoInvalida',
      violations: [{ property: 'solicrec.status', reason: expect.stringContaining('RECEBIDA') }],
    });

    const cancelled = await bank.cancelSolicitation(created.idSolicRec);
    expect(cancelled.status).toBe('CANCELADA');
    expect(fromBankSolicitationStatus(cancelled.status)).toEqual({ status: 'CANCELLED', outcome: 'CANCELLED' });
    expect(await refusalOf(payer.answerSolicitation(created.idSolicRec, 'ACCEPT'))).toMatchObject({ status: 400 });
    expect((await bank.getRecurrence(rec.idRec)).status).toBe('CRIADA'); // cancelling the alert leaves the recurrence
    expect((await bank.createSolicitation(body)).status).toBe('CRIADA'); // the next one may go
  });

  it('past its deadline unanswered: solicitation EXPIRADA, recurrence EXPIRADA, pushed to the webhook', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    const created = await bank.createSolicitation({
      idRec: rec.idRec,
      calendario: { dataExpiracaoSolicitacao: expiresIn(1200) },
      destinatario: destinatario('99990001'),
    });
    await eventually(
      async () => receiver.statusesOf(rec.idRec),
      (s) => s.includes('EXPIRADA'),
    );
    expect(receiver.statusesOf(rec.idRec)).toEqual(['EXPIRADA']);
    const expired = await bank.getSolicitation(created.idSolicRec);
    expect(expired.status).toBe('EXPIRADA');
    expect(fromBankSolicitationStatus(expired.status, expired.atualizacao)).toEqual({ status: 'SENT', outcome: 'EXPIRED' });
    expect((await bank.getRecurrence(rec.idRec)).status).toBe('EXPIRADA');
  });

  it('refuses a bad CPF, a past deadline, an unknown recurrence and an unknown solicitation', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    const badCpf = await refusalOf(
      bank.createSolicitation({
        idRec: rec.idRec,
        calendario: { dataExpiracaoSolicitacao: expiresIn(60_000) },
        destinatario: { ...destinatario(), cpf: '11111111111' },
      }),
    );
    expect(badCpf).toMatchObject({ status: 400, providerCode: 'SolicRecOperacaoInvalida', violations: [{ property: 'solicrec.destinatario.cpf' }] });
    const past = await refusalOf(
      bank.createSolicitation({ idRec: rec.idRec, calendario: { dataExpiracaoSolicitacao: expiresIn(-60_000) }, destinatario: destinatario() }),
    );
    expect(past).toMatchObject({ status: 400, violations: [{ property: 'solicrec.calendario.dataExpiracaoSolicitacao' }] });
    const unknownRec = await refusalOf(
      bank.createSolicitation({
        idRec: 'RN1234567820250101aaaaaaaaaaa',
        calendario: { dataExpiracaoSolicitacao: expiresIn(60_000) },
        destinatario: destinatario(),
      }),
    );
    expect(unknownRec).toMatchObject({ status: 404, providerCode: 'RecNaoEncontrada' });
    expect(await refusalOf(bank.getSolicitation('SC1234567820250101aaaaaaaaaaa'))).toMatchObject({ status: 404, providerCode: 'SolicRecNaoEncontrada' });
  });

  it('keeps moving solicitations after a restart of the simulator', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    const created = await bank.createSolicitation({
      idRec: rec.idRec,
      calendario: { dataExpiracaoSolicitacao: expiresIn(3_600_000) },
      destinatario: destinatario(),
    });
    await app.close();
    await startSimulator(); // a new port: the clients follow it
    const restarted = new PixBankClient(baseUrl, { token: 'production-token' });
    try {
      const received = await eventually(
        () => restarted.getSolicitation(created.idSolicRec),
        (s) => s.status === 'RECEBIDA',
      );
      expect(received.atualizacao.map((a) => a.status)).toEqual(['CRIADA', 'ENVIADA', 'RECEBIDA']);
    } finally {
      await restarted.close();
    }
    await bank.close();
    await payer.close();
    bank = new PixBankClient(baseUrl, { token: 'production-token' });
    payer = new SimulatedPayer(baseUrl, { token: 'production-token' });
  });
});

describe('clients and transport', () => {
  it('keeps each token’s data apart', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    const sandbox = new PixBankClient(baseUrl, { token: 'sandbox-token' });
    try {
      expect(await refusalOf(sandbox.getRecurrence(rec.idRec))).toMatchObject({ status: 404, providerCode: 'RecNaoEncontrada' });
      expect(await refusalOf(sandbox.getRecurrenceWebhook())).toMatchObject({ status: 404 });
    } finally {
      await sandbox.close();
    }
  });

  it('refuses a request without a bearer token (403 AcessoNegado)', async () => {
    const anonymous = new PixBankClient(baseUrl);
    try {
      expect(await refusalOf(anonymous.createRecurrenceLocation())).toMatchObject({ kind: 'provider', status: 403, providerCode: 'AcessoNegado' });
    } finally {
      await anonymous.close();
    }
  });

  it('answers problem+json for unknown routes and malformed JSON', async () => {
    const unknown = await fetch(`${baseUrl}/nothing-here`, { headers: { authorization: 'Bearer x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(await unknown.json()).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado', status: 404 });
    const malformed = await fetch(`${baseUrl}/rec`, { method: 'POST', headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: '{' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', status: 400 });
  });

  it('turns a bank that cannot be reached into an unavailable refusal', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new PixBankClient(`http://127.0.0.1:${port}`, { token: 't' });
    try {
      expect(await refusalOf(unreachable.getRecurrence('RN1234567820250101aaaaaaaaaaa'))).toMatchObject({
        kind: 'unavailable',
        message: expect.stringContaining('the bank is unavailable'),
      });
    } finally {
      await unreachable.close();
    }
  });

  it('configures, reads and deletes the recurrence webhook; refuses a URL that is not one', async () => {
    const other = new PixBankClient(baseUrl, { token: `webhook-${newTxid()}` });
    try {
      expect(await refusalOf(other.configureRecurrenceWebhook('not a url'))).toMatchObject({
        status: 400,
        providerCode: 'WebhookRecOperacaoInvalida',
        violations: [{ property: 'webhookUrl' }],
      });
      await other.configureRecurrenceWebhook('http://127.0.0.1:9/hooks');
      expect(await other.getRecurrenceWebhook()).toEqual({ webhookUrl: 'http://127.0.0.1:9/hooks', criacao: expect.any(String) });
      await other.deleteRecurrenceWebhook();
      expect(await refusalOf(other.getRecurrenceWebhook())).toMatchObject({ status: 404 });
    } finally {
      await other.close();
    }
  });

  it('retries a failed delivery and posts to {webhookUrl}/rec', async () => {
    const rec = await bank.createRecurrence(recurrenceBody());
    receiver.failOnce.add(rec.idRec);
    await payer.refuseRecurrence(rec.idRec);
    await eventually(
      async () => receiver.statusesOf(rec.idRec),
      (s) => s.length > 0,
    );
    expect(receiver.statusesOf(rec.idRec)).toEqual(['REJEITADA']);
    expect(receiver.failOnce.has(rec.idRec)).toBe(false); // the first delivery was answered 500, the retry went through
    expect(new Set(receiver.paths)).toEqual(new Set(['/hooks/bank/rec']));
  });
});
