// Our words (docs/api/recurrences.md) against the bank's (BCB API Pix). One table per pair, read both ways.
import { PayoutStatus, PayoutStatusCode } from '@pixauto/contracts';
import type { Centavos } from '@pixauto/pix';
import type { Atualizacao, PagamentoStatus, Periodicidade, PoliticaRetentativa, RecStatus, SolicRecStatus, TipoJornada } from './wire';

export type Periodicity = 'WEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'SEMIANNUAL' | 'ANNUAL';
export type RetryPolicy = 'NOT_ALLOWED' | 'ALLOWS_3R_7D';
export type RecurrenceStatus = 'CREATED' | 'APPROVED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';
export type Journey = 'AWAITING_DEFINITION' | 'JOURNEY_1' | 'JOURNEY_2' | 'JOURNEY_3' | 'JOURNEY_4';
/** The path of the alert, not the payer's decision. */
export type SolicitationStatus = 'CREATED' | 'SENT' | 'RECEIVED' | 'CANCELLED';
/** What became of the alert beyond its path: answered by the payer, or past its deadline unanswered. */
export type SolicitationOutcome = 'PENDING' | 'ACCEPTED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';

const PERIODICITY: Record<Periodicity, Periodicidade> = {
  WEEKLY: 'SEMANAL',
  MONTHLY: 'MENSAL',
  QUARTERLY: 'TRIMESTRAL',
  SEMIANNUAL: 'SEMESTRAL',
  ANNUAL: 'ANUAL',
};

const RETRY_POLICY: Record<RetryPolicy, PoliticaRetentativa> = {
  NOT_ALLOWED: 'NAO_PERMITE',
  ALLOWS_3R_7D: 'PERMITE_3R_7D',
};

const RECURRENCE_STATUS: Record<RecStatus, RecurrenceStatus> = {
  CRIADA: 'CREATED',
  APROVADA: 'APPROVED',
  REJEITADA: 'REJECTED',
  EXPIRADA: 'EXPIRED',
  CANCELADA: 'CANCELLED',
};

const JOURNEY: Record<TipoJornada, Journey> = {
  AGUARDANDO_DEFINICAO: 'AWAITING_DEFINITION',
  JORNADA_1: 'JOURNEY_1',
  JORNADA_2: 'JOURNEY_2',
  JORNADA_3: 'JOURNEY_3',
  JORNADA_4: 'JOURNEY_4',
};

const invert = <K extends string, V extends string>(table: Record<K, V>): Record<V, K> =>
  Object.fromEntries(Object.entries(table).map(([ours, theirs]) => [theirs, ours])) as Record<V, K>;

const lookup = <K extends string, V extends string>(table: Record<K, V>, key: K, what: string): V => {
  const value = table[key];
  if (value === undefined) throw new RangeError(`not a known ${what}: ${String(key)}`);
  return value;
};

const PERIODICITY_BACK = invert(PERIODICITY);
const RETRY_POLICY_BACK = invert(RETRY_POLICY);
const RECURRENCE_STATUS_BACK = invert(RECURRENCE_STATUS);
const JOURNEY_BACK = invert(JOURNEY);

export const toBankPeriodicity = (p: Periodicity): Periodicidade => lookup(PERIODICITY, p, 'periodicity');
export const fromBankPeriodicity = (p: Periodicidade): Periodicity => lookup(PERIODICITY_BACK, p, 'periodicidade');
export const toBankRetryPolicy = (p: RetryPolicy): PoliticaRetentativa => lookup(RETRY_POLICY, p, 'retry policy');
export const fromBankRetryPolicy = (p: PoliticaRetentativa): RetryPolicy => lookup(RETRY_POLICY_BACK, p, 'politicaRetentativa');
export const fromBankRecurrenceStatus = (s: RecStatus): RecurrenceStatus => lookup(RECURRENCE_STATUS, s, 'rec status');
export const toBankRecurrenceStatus = (s: RecurrenceStatus): RecStatus => lookup(RECURRENCE_STATUS_BACK, s, 'recurrence status');
export const fromBankJourney = (j: TipoJornada | undefined): Journey => (j === undefined ? 'AWAITING_DEFINITION' : lookup(JOURNEY, j, 'tipoJornada'));
export const toBankJourney = (j: Journey): TipoJornada => lookup(JOURNEY_BACK, j, 'journey');

// The statuses that are a step of the alert's path; the others are outcomes reached from one of them.
const PATH: Partial<Record<SolicRecStatus, SolicitationStatus>> = { CRIADA: 'CREATED', ENVIADA: 'SENT', RECEBIDA: 'RECEIVED' };

export interface SolicitationState {
  status: SolicitationStatus;
  outcome: SolicitationOutcome;
}

/**
 * A solicitrec status in our words: its path status plus the outcome (the payer's
 * decision stays out of the solicitation status: it shows in the recurrence). ACEITA and REJEITADA were answered by
 * the payer, so the alert was RECEIVED; EXPIRADA stays at the last step of the path its history shows.
 */
export function fromBankSolicitationStatus(status: SolicRecStatus, history: readonly Atualizacao<SolicRecStatus>[] = []): SolicitationState {
  switch (status) {
    case 'CRIADA':
    case 'ENVIADA':
    case 'RECEBIDA':
      return { status: PATH[status] as SolicitationStatus, outcome: 'PENDING' };
    case 'ACEITA':
      return { status: 'RECEIVED', outcome: 'ACCEPTED' };
    case 'REJEITADA':
      return { status: 'RECEIVED', outcome: 'REJECTED' };
    case 'CANCELADA':
      return { status: 'CANCELLED', outcome: 'CANCELLED' };
    case 'EXPIRADA': {
      const reached = history.map((step) => PATH[step.status]).filter((step): step is SolicitationStatus => step !== undefined);
      return { status: reached[reached.length - 1] ?? 'CREATED', outcome: 'EXPIRED' };
    }
    default: {
      const unreachable: never = status;
      throw new RangeError(`not a known solicrec status: ${String(unreachable)}`);
    }
  }
}

// A payout at the bank (Pagamento.status) and the platform's status codes (docs/decisions/payouts.md). The platform's 0
// (created, not yet handed to the bank) has no bank counterpart.
const PAYOUT_STATUS: Record<PagamentoStatus, PayoutStatusCode> = {
  EM_PROCESSAMENTO: PayoutStatus.processing,
  REALIZADO: PayoutStatus.completed,
  CANCELADO: PayoutStatus.canceled,
  NAO_REALIZADO: PayoutStatus.rejected,
};

/** The bank's payout status as the platform's code: EM_PROCESSAMENTO 4, REALIZADO 1, CANCELADO 2, NAO_REALIZADO 3. */
export function payoutStatusOf(status: PagamentoStatus): PayoutStatusCode {
  const code = PAYOUT_STATUS[status];
  if (code === undefined) throw new RangeError(`not a known pagamento status: ${String(status)}`);
  return code;
}

/** The platform's payout code as the bank's status (what /sim/pagamentos/{idEnvio}/status takes); 0 has none. */
export function toBankPayoutStatus(code: PayoutStatusCode): PagamentoStatus {
  const status = (Object.keys(PAYOUT_STATUS) as PagamentoStatus[]).find((s) => PAYOUT_STATUS[s] === code);
  if (status === undefined) throw new RangeError(`no bank status for payout status ${String(code)}`);
  return status;
}

// Amounts on the BCB wire: "\d{1,10}\.\d{2}" (CobValor.original, RecBase.valor.valorRec).
const VALOR = /^(\d{1,10})\.(\d{2})$/;

/** Centavos → the bank's decimal string: 3500 → "35.00". */
export function centavosToValor(centavos: Centavos): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0 || centavos >= 10 ** 12) throw new RangeError(`not an amount the bank takes: ${centavos} centavos`);
  const text = String(centavos).padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** The bank's decimal string → centavos: "35.00" → 3500; undefined when it does not match the spec's pattern. */
export function valorToCentavos(valor: unknown): Centavos | undefined {
  if (typeof valor !== 'string') return undefined;
  const match = VALOR.exec(valor);
  return match ? Number(match[1]) * 100 + Number(match[2]) : undefined;
}

/** A CPF (11 digits) or CNPJ (14) as the bank's Documento: {cpf} or {cnpj}. */
export const toBankDocument = (document: string): { cpf: string } | { cnpj: string } => (document.length === 11 ? { cpf: document } : { cnpj: document });
