import {
  cancelRecurringCharge,
  DEBIT_REFUSED,
  dueOn,
  issueRecurringCharge,
  pendingAttempt,
  refuseAttempt,
  requestRetry,
  retriesOf,
  settle,
  settleIfDue,
} from './recurring-charge';
import { Result } from './problems';
import { CobRRecord, RecRecord } from './records';
import { NewRecurringCharge } from './validation';

const at = new Date('2026-03-01T12:00:00.000Z'); // 09:00 on 2026-03-01 in Brasília
const later = new Date('2026-03-02T12:00:00.000Z');
const txid = '3136957d93134f2184b369e8f1c0729d';

const recurrence = (overrides: Partial<RecRecord> = {}): RecRecord => ({
  idRec: 'RR1234567820260101abcdefghijk',
  status: 'APROVADA',
  vinculo: { contrato: 'c1', devedor: { cpf: '52998224725', nome: 'Fulano' } },
  calendario: { dataInicial: '2026-01-31', periodicidade: 'MENSAL' },
  valor: { rec: 10607 },
  politicaRetentativa: 'PERMITE_3R_7D',
  locId: null,
  activationTxid: null,
  tipoJornada: 'JORNADA_2',
  pagador: { cpf: '52998224725', ispbParticipante: '87654321' },
  encerramento: null,
  atualizacao: [],
  ...overrides,
});

const input: NewRecurringCharge = {
  idRec: 'RR1234567820260101abcdefghijk',
  dataDeVencimento: '2026-03-10',
  amount: 10607,
  ajusteDiaUtil: true,
  recebedor: { conta: '012682', tipoConta: 'CORRENTE' },
};

const attempt = { payerIspb: '87654321', endToEndId: 'E87654321202603011200aaaaaaaaaaa' };

const unwrap = <T>(result: Result<T>): T => {
  if (!result.ok) throw new Error(`refused: ${result.problem.detail}`);
  return result.value;
};
const reasonOf = (result: Result<unknown>): string | undefined => (result.ok ? undefined : result.problem.violacoes?.[0]?.razao);

const issued = (overrides: Partial<RecRecord> = {}, due = input.dataDeVencimento): CobRRecord =>
  unwrap(issueRecurringCharge(txid, { ...input, dataDeVencimento: due }, { rec: recurrence(overrides), txidInUse: false, cycleTaken: false }, attempt, at));

describe('issuing a recurring charge', () => {
  it('is ATIVA at once, with the policy of its recurrence and one AGND attempt AGENDADA on the due date', () => {
    const cobr = issued();
    expect(cobr).toMatchObject({
      status: 'ATIVA',
      criacao: '2026-03-01',
      cycle: 1,
      politicaRetentativa: 'PERMITE_3R_7D',
      atualizacao: [
        { status: 'CRIADA', data: at.toISOString() },
        { status: 'ATIVA', data: at.toISOString() },
      ],
      tentativas: [{ dataLiquidacao: '2026-03-10', tipo: 'AGND', status: 'AGENDADA', endToEndId: attempt.endToEndId }],
    });
    expect(cobr.tentativas[0].atualizacao.map((a) => a.status)).toEqual(['SOLICITADA', 'AGENDADA']);
    expect(dueOn(cobr)).toBe('2026-03-10');
  });

  it('refuses a txid in use, a recurrence not APROVADA or unknown, and a cycle already charged, with the spec texts', () => {
    const refused = issueRecurringCharge(txid, input, { rec: recurrence({ status: 'CANCELADA' }), txidInUse: true, cycleTaken: true }, attempt, at);
    expect(!refused.ok && refused.problem.violacoes?.map((v) => v.razao)).toEqual([
      'O campo cobr.txid encontra-se em uso.',
      'A recorrência referenciada por cobr.idRec encontra-se com o status CANCELADA; somente uma recorrência APROVADA pode ser cobrada.',
      'Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.',
    ]);
    expect(reasonOf(issueRecurringCharge(txid, input, { rec: undefined, txidInUse: false, cycleTaken: false }, attempt, at))).toBe(
      'O campo cobr.idRec não corresponde a uma recorrência existente.',
    );
  });
});

describe('cancelling a recurring charge', () => {
  it('cancels it and its pending attempt before the first attempt’s date (SLCR)', () => {
    const cancelled = unwrap(cancelRecurringCharge(issued(), '2026-03-09', later));
    expect(cancelled).toMatchObject({
      status: 'CANCELADA',
      encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } },
      tentativas: [{ status: 'CANCELADA' }],
    });
    expect(cancelled.atualizacao.map((a) => a.status)).toEqual(['CRIADA', 'ATIVA', 'CANCELADA']);
    expect(dueOn(cancelled)).toBeNull();
  });

  it('refuses on or after the first attempt’s date, and once ended', () => {
    const text = 'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.';
    expect(reasonOf(cancelRecurringCharge(issued(), '2026-03-10', later))).toBe(text);
    expect(reasonOf(cancelRecurringCharge(issued(), '2026-03-11', later))).toBe(text);
    const paid = unwrap(settle(issued(), later));
    expect(reasonOf(cancelRecurringCharge(paid, '2026-03-01', later))).toBe(
      'A cobrança encontra-se com o status CONCLUIDA; somente uma cobrança CRIADA ou ATIVA pode ser cancelada.',
    );
  });
});

describe('settling and refusing an attempt', () => {
  it('pays the pending attempt whatever its date: PAGA, CONCLUIDA, one pix with the attempt’s endToEndId', () => {
    const paid = unwrap(settle(issued(), later));
    expect(paid).toMatchObject({ status: 'CONCLUIDA', tentativas: [{ status: 'PAGA' }] });
    expect(paid.pix).toEqual([{ endToEndId: attempt.endToEndId, txid, valor: '106.07', horario: later.toISOString() }]);
    expect(reasonOf(settle(paid, later))).toBe('A cobrança não possui tentativa com status SOLICITADA ou AGENDADA a liquidar.');
  });

  it('the sweeper settles only an AGENDADA attempt whose day has come', () => {
    const cobr = issued();
    expect(settleIfDue(cobr, '2026-03-09', later)).toBe(cobr);
    expect(settleIfDue(cobr, '2026-03-10', later).status).toBe('CONCLUIDA');
    expect(settleIfDue(cobr, '2026-03-12', later).status).toBe('CONCLUIDA');
    const cancelled = unwrap(cancelRecurringCharge(cobr, '2026-03-01', later));
    expect(settleIfDue(cancelled, '2026-03-12', later)).toBe(cancelled);
  });

  it('a refused attempt leaves the charge ATIVA when retries are allowed, REJEITADA otherwise', () => {
    const allowed = unwrap(refuseAttempt(issued(), later));
    expect(allowed).toMatchObject({ status: 'ATIVA', tentativas: [{ status: 'REJEITADA', rejeicao: DEBIT_REFUSED }], encerramento: null });
    expect(DEBIT_REFUSED.codigo).toBe('AM02');
    expect(pendingAttempt(allowed)).toBeUndefined();
    const notAllowed = unwrap(refuseAttempt(issued({ politicaRetentativa: 'NAO_PERMITE' }), later));
    expect(notAllowed).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: DEBIT_REFUSED } });
    expect(notAllowed.atualizacao.map((a) => a.status)).toEqual(['CRIADA', 'ATIVA', 'REJEITADA']);
    expect(refuseAttempt(allowed, later).ok).toBe(false);
  });
});

describe('retries', () => {
  const failed = () => unwrap(refuseAttempt(issued(), later)); // due 2026-03-10, refused
  const retry = (cobr: CobRRecord, data: string, today = '2026-03-10') => requestRetry(cobr, data, today, 'E87654321202603101200bbbbbbbbbbb', later);

  it('adds an NTAG attempt AGENDADA on a future day 1 to 7 days after the due date', () => {
    const retried = unwrap(retry(failed(), '2026-03-11'));
    expect(retried.tentativas.map((t) => [t.tipo, t.status, t.dataLiquidacao])).toEqual([
      ['AGND', 'REJEITADA', '2026-03-10'],
      ['NTAG', 'AGENDADA', '2026-03-11'],
    ]);
    expect(dueOn(retried)).toBe('2026-03-11');
    expect(retry(failed(), '2026-03-17').ok).toBe(true);
  });

  it('checks the policy, the status, the pending attempt, the date and the count, in that order', () => {
    expect(reasonOf(retry(issued({ politicaRetentativa: 'NAO_PERMITE' }), 'not a date'))).toBe(
      'A política configurada na recorrência não permite retentativa de cobrança.',
    );
    const cancelled = unwrap(cancelRecurringCharge(issued(), '2026-03-01', later));
    expect(reasonOf(retry(cancelled, 'not a date'))).toBe(
      'A cobrança encontra-se com o status CANCELADA; somente uma cobrança ATIVA pode receber retentativa.',
    );
    expect(reasonOf(retry(issued(), 'not a date'))).toBe('Existe uma tentativa com status SOLICITADA ou AGENDADA.');
    expect(reasonOf(retry(failed(), '2026-03-32'))).toBe('O parâmetro data não respeita o schema.');
    expect(reasonOf(retry(failed(), '2026-03-12', '2026-03-12'))).toBe('O parâmetro data não corresponde a uma data futura.');
    expect(reasonOf(retry(failed(), '2026-03-11', '2026-03-12'))).toBe('O parâmetro data não corresponde a uma data futura.');
    const window = 'A data da retentativa deve estar entre 1 e 7 dias após a data de vencimento da cobrança.';
    expect(reasonOf(retry(failed(), '2026-03-10', '2026-03-09'))).toBe(window); // the due date itself
    expect(reasonOf(retry(failed(), '2026-03-18'))).toBe(window);
  });

  it('allows at most 3', () => {
    let cobr = failed();
    for (const data of ['2026-03-11', '2026-03-12', '2026-03-13']) cobr = unwrap(refuseAttempt(unwrap(retry(cobr, data)), later));
    expect(retriesOf(cobr)).toBe(3);
    expect(cobr.status).toBe('ATIVA');
    expect(reasonOf(retry(cobr, '2026-03-14'))).toBe('A cobrança já recebeu o número máximo de 3 retentativas.');
  });
});
