// A recurring charge (cobr, CobRStatus) and its attempts to settle it (CobRTentativas). Created ATIVA (CRIADA, then
// ATIVA at once) with the scheduled attempt (AGND) AGENDADA on the due date; CONCLUIDA when an attempt is paid;
// CANCELADA by the receiving user before the first attempt's date; REJEITADA when the payer's side refuses an attempt
// and the recurrence allows no retry. Under PERMITE_3R_7D a refused attempt leaves it ATIVA, and the receiver may ask
// for up to 3 retries (NTAG), each on a future day 1 to 7 days after the due date. Pure: each step returns the new
// record or the spec's refusal; time, and the endToEndId of a new attempt, come in as arguments.
import { centavosToValor } from '@pixauto/bank';
import type { Atualizacao, CobRStatus, RejeicaoCobR, TentativaCobR, TentativaCobRStatus, TipoTentativaCobR } from '@pixauto/bank';
import { addDays, brasiliaDate, compareDates, isValidCalendarDate } from '@pixauto/pix';
import { cycleIndex } from './cycle';
import { ok, Problems, refused, Result, violation } from './problems';
import { CobRRecord, RecRecord } from './records';
import { NewRecurringCharge } from './validation';

export const MAX_RETRIES = 3;
export const RETRY_WINDOW_DAYS = 7;

/**
 * The payer's side refuses the debit. The spec's catalogue has no "insufficient funds" (AM04); AM02 (an amount the
 * payer's account does not allow: above its balance or limit) is the nearest, and it is not among the codes that the
 * spec says reject the charge itself (AC05, AM09, DENC, DS27, DTED, MIDI, MSUC, NITX, RC09), so a retry may follow.
 */
export const DEBIT_REFUSED: RejeicaoCobR = {
  codigo: 'AM02',
  descricao: 'Débito recusado pelo PSP pagador: valor não permitido para a conta do usuário pagador (saldo ou limite insuficiente).',
};

const PENDING: readonly TentativaCobRStatus[] = ['SOLICITADA', 'AGENDADA'];
const isPending = (t: TentativaCobR): boolean => PENDING.includes(t.status);

/** The attempt still to be settled (SOLICITADA or AGENDADA); at most one at a time. */
export const pendingAttempt = (cobr: Pick<CobRRecord, 'tentativas'>): TentativaCobR | undefined => cobr.tentativas.find(isPending);

/** The day the sweeper settles the charge: its AGENDADA attempt's date; null when nothing is scheduled. */
export function dueOn(cobr: Pick<CobRRecord, 'tentativas'>): string | null {
  const attempt = pendingAttempt(cobr);
  return attempt?.status === 'AGENDADA' ? attempt.dataLiquidacao : null;
}

/** The receiver's retries so far: every attempt after the scheduled one. */
export const retriesOf = (cobr: Pick<CobRRecord, 'tentativas'>): number => cobr.tentativas.filter((t) => t.tipo !== 'AGND').length;

const invalid = (propriedade: string, razao: string, valor?: unknown) => refused<CobRRecord>(Problems.cobRInvalid([violation(propriedade, razao, valor)]));

const step = <S extends string>(history: Atualizacao<S>[], status: S, at: Date): Atualizacao<S>[] => [...history, { status, data: at.toISOString() }];

const scheduled = (dataLiquidacao: string, tipo: TipoTentativaCobR, endToEndId: string, at: Date): TentativaCobR => ({
  dataLiquidacao,
  tipo,
  status: 'AGENDADA',
  endToEndId,
  // The payer's institution takes the instruction (SOLICITADA) and schedules it (AGENDADA) at once.
  atualizacao: [
    { status: 'SOLICITADA', data: at.toISOString() },
    { status: 'AGENDADA', data: at.toISOString() },
  ],
});

/** The pending attempt moved to `status` (the charge's own status is the caller's). */
function closeAttempt(cobr: CobRRecord, status: TentativaCobRStatus, at: Date, extra: Partial<TentativaCobR> = {}): CobRRecord {
  return {
    ...cobr,
    tentativas: cobr.tentativas.map((t) => (isPending(t) ? { ...t, ...extra, status, atualizacao: step(t.atualizacao, status, at) } : t)),
  };
}

const moveTo = (cobr: CobRRecord, status: CobRStatus, at: Date): CobRRecord => ({ ...cobr, status, atualizacao: step(cobr.atualizacao, status, at) });

/** "O campo cobr.txid encontra-se em uso." */
export const txidInUse = (txid: string) => violation('cobr.txid', 'O campo cobr.txid encontra-se em uso.', txid);

/** One live charge per recurrence and cycle (cycle.ts). */
export const cycleTaken = (dataDeVencimento: string) =>
  violation(
    'cobr.calendario.dataDeVencimento',
    'Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.',
    dataDeVencimento,
  );

export interface IssueContext {
  /** The recurrence named by idRec, when this client has one. */
  rec: RecRecord | undefined;
  /** Whether this client already has a charge (recurring or immediate) with this txid. */
  txidInUse: boolean;
  /** Whether the recurrence already has a charge, not REJEITADA or CANCELADA, due in the same cycle. */
  cycleTaken: boolean;
}

/** PUT /cobr/{txid}: the violations that depend on what the bank holds, then the new charge with its scheduled attempt. */
export function issueRecurringCharge(
  txid: string,
  input: NewRecurringCharge,
  context: IssueContext,
  attempt: { payerIspb: string; endToEndId: string },
  at: Date,
): Result<CobRRecord> {
  const { rec } = context;
  const v = [];
  if (context.txidInUse) v.push(txidInUse(txid));
  if (!rec) v.push(violation('cobr.idRec', 'O campo cobr.idRec não corresponde a uma recorrência existente.', input.idRec));
  else if (rec.status !== 'APROVADA') {
    v.push(
      violation(
        'cobr.idRec',
        `A recorrência referenciada por cobr.idRec encontra-se com o status ${rec.status}; somente uma recorrência APROVADA pode ser cobrada.`,
        input.idRec,
      ),
    );
  }
  if (context.cycleTaken) v.push(cycleTaken(input.dataDeVencimento));
  if (v.length > 0 || !rec) return refused(Problems.cobRInvalid(v));
  return ok({
    txid,
    idRec: rec.idRec,
    status: 'ATIVA',
    createdAt: at.toISOString(),
    criacao: brasiliaDate(at),
    dataDeVencimento: input.dataDeVencimento,
    cycle: cycleIndex(rec.calendario, input.dataDeVencimento),
    amount: input.amount,
    ajusteDiaUtil: input.ajusteDiaUtil,
    ...(input.infoAdicional !== undefined && { infoAdicional: input.infoAdicional }),
    ...(input.devedor && { devedor: input.devedor }),
    recebedor: input.recebedor,
    politicaRetentativa: rec.politicaRetentativa,
    payerIspb: attempt.payerIspb,
    // The settlement date is the due date: the simulator keeps no business-day calendar (README).
    tentativas: [scheduled(input.dataDeVencimento, 'AGND', attempt.endToEndId, at)],
    pix: [],
    encerramento: null,
    atualizacao: [
      { status: 'CRIADA', data: at.toISOString() },
      { status: 'ATIVA', data: at.toISOString() },
    ],
  });
}

/**
 * PATCH /cobr/{txid} status CANCELADA, by the receiving user: only while CRIADA or ATIVA, and only before the day
 * of the first attempt ("Não é possível cancelar ... igual ou maior que a data prevista da primeira tentativa").
 */
export function cancelRecurringCharge(cobr: CobRRecord, today: string, at: Date): Result<CobRRecord> {
  if (cobr.status !== 'CRIADA' && cobr.status !== 'ATIVA') {
    return invalid('cobr.status', `A cobrança encontra-se com o status ${cobr.status}; somente uma cobrança CRIADA ou ATIVA pode ser cancelada.`, cobr.status);
  }
  const first = cobr.tentativas[0];
  if (first && compareDates(today, first.dataLiquidacao) >= 0) {
    return invalid(
      'cobr.status',
      'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.',
      first.dataLiquidacao,
    );
  }
  return ok({
    ...moveTo(closeAttempt(cobr, 'CANCELADA', at), 'CANCELADA', at),
    encerramento: {
      cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento de agendamento solicitado pelo usuário recebedor' },
    },
  });
}

/**
 * POST /cobr/{txid}/retentativa/{data}, its rules in this order: the recurrence allows retries; the charge is ATIVA;
 * no attempt is pending; `data` is a date, in the future, 1 to 7 days after the due date; fewer than 3 retries so far.
 */
export function requestRetry(cobr: CobRRecord, data: string, today: string, endToEndId: string, at: Date): Result<CobRRecord> {
  if (cobr.politicaRetentativa !== 'PERMITE_3R_7D') {
    return invalid('rec.politicaRetentativa', 'A política configurada na recorrência não permite retentativa de cobrança.', cobr.politicaRetentativa);
  }
  if (cobr.status !== 'ATIVA') {
    return invalid('cobr.status', `A cobrança encontra-se com o status ${cobr.status}; somente uma cobrança ATIVA pode receber retentativa.`, cobr.status);
  }
  const pending = pendingAttempt(cobr);
  if (pending) return invalid('cobr.tentativas', 'Existe uma tentativa com status SOLICITADA ou AGENDADA.', pending.status);
  if (isValidCalendarDate(data) !== 'ok') return invalid('data', 'O parâmetro data não respeita o schema.', data);
  if (compareDates(data, today) <= 0) return invalid('data', 'O parâmetro data não corresponde a uma data futura.', data);
  if (compareDates(data, addDays(cobr.dataDeVencimento, 1)) < 0 || compareDates(data, addDays(cobr.dataDeVencimento, RETRY_WINDOW_DAYS)) > 0) {
    return invalid('data', `A data da retentativa deve estar entre 1 e ${RETRY_WINDOW_DAYS} dias após a data de vencimento da cobrança.`, data);
  }
  if (retriesOf(cobr) >= MAX_RETRIES) {
    return invalid('cobr.tentativas', `A cobrança já recebeu o número máximo de ${MAX_RETRIES} retentativas.`, String(retriesOf(cobr)));
  }
  return ok({ ...cobr, tentativas: [...cobr.tentativas, scheduled(data, 'NTAG', endToEndId, at)] });
}

const nothingPending = () => invalid('cobr.tentativas', 'A cobrança não possui tentativa com status SOLICITADA ou AGENDADA a liquidar.');

/** The payer's institution debits the payer for the pending attempt now, whatever its date: PAGA, the charge CONCLUIDA. */
export function settle(cobr: CobRRecord, at: Date): Result<CobRRecord> {
  const attempt = pendingAttempt(cobr);
  if (!attempt) return nothingPending();
  const paid = moveTo(closeAttempt(cobr, 'PAGA', at), 'CONCLUIDA', at);
  return ok({
    ...paid,
    pix: [...cobr.pix, { endToEndId: attempt.endToEndId, txid: cobr.txid, valor: centavosToValor(cobr.amount), horario: at.toISOString() }],
  });
}

/** The sweeper's step: settles the AGENDADA attempt whose date has come (`today` in Brasília); otherwise unchanged. */
export function settleIfDue(cobr: CobRRecord, today: string, at: Date): CobRRecord {
  const due = dueOn(cobr);
  if (due === null || compareDates(due, today) > 0) return cobr;
  const settled = settle(cobr, at);
  return settled.ok ? settled.value : cobr;
}

/**
 * The payer's institution refuses the pending attempt now (DEBIT_REFUSED). The charge stays ATIVA when the
 * recurrence allows retries (PERMITE_3R_7D), else it is REJEITADA with the same reason.
 */
export function refuseAttempt(cobr: CobRRecord, at: Date): Result<CobRRecord> {
  if (!pendingAttempt(cobr)) return nothingPending();
  const refusedAttempt = closeAttempt(cobr, 'REJEITADA', at, { rejeicao: DEBIT_REFUSED });
  if (cobr.politicaRetentativa === 'PERMITE_3R_7D') return ok(refusedAttempt);
  return ok({ ...moveTo(refusedAttempt, 'REJEITADA', at), encerramento: { rejeicao: DEBIT_REFUSED } });
}
