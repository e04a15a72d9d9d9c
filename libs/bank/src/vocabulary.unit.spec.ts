import {
  centavosToValor,
  fromBankJourney,
  fromBankPeriodicity,
  fromBankRecurrenceStatus,
  fromBankRetryPolicy,
  fromBankSolicitationStatus,
  payoutStatusOf,
  Periodicity,
  RecurrenceStatus,
  RetryPolicy,
  toBankJourney,
  toBankPayoutStatus,
  toBankPeriodicity,
  toBankRecurrenceStatus,
  toBankRetryPolicy,
  valorToCentavos,
} from './vocabulary';
import { PayoutStatus } from '@pixauto/contracts';
import type { Atualizacao, PagamentoStatus, SolicRecStatus } from './wire';

describe('periodicity', () => {
  it.each([
    ['WEEKLY', 'SEMANAL'],
    ['MONTHLY', 'MENSAL'],
    ['QUARTERLY', 'TRIMESTRAL'],
    ['SEMIANNUAL', 'SEMESTRAL'],
    ['ANNUAL', 'ANUAL'],
  ] as const)('%s is %s, both ways', (ours, theirs) => {
    expect(toBankPeriodicity(ours)).toBe(theirs);
    expect(fromBankPeriodicity(theirs)).toBe(ours);
  });

  it('throws on a word neither side knows', () => {
    expect(() => toBankPeriodicity('DAILY' as Periodicity)).toThrow(RangeError);
  });
});

describe('retry policy', () => {
  it.each([
    ['NOT_ALLOWED', 'NAO_PERMITE'],
    ['ALLOWS_3R_7D', 'PERMITE_3R_7D'],
  ] as const)('%s is %s, both ways', (ours, theirs) => {
    expect(toBankRetryPolicy(ours)).toBe(theirs);
    expect(fromBankRetryPolicy(theirs)).toBe(ours);
  });

  it('throws on an unknown policy', () => {
    expect(() => toBankRetryPolicy('ALWAYS' as RetryPolicy)).toThrow(RangeError);
  });
});

describe('recurrence status and journey', () => {
  it.each([
    ['CRIADA', 'CREATED'],
    ['APROVADA', 'APPROVED'],
    ['REJEITADA', 'REJECTED'],
    ['EXPIRADA', 'EXPIRED'],
    ['CANCELADA', 'CANCELLED'],
  ] as const)('%s is %s, both ways', (theirs, ours) => {
    expect(fromBankRecurrenceStatus(theirs)).toBe(ours);
    expect(toBankRecurrenceStatus(ours)).toBe(theirs);
  });

  it('throws on an unknown status', () => {
    expect(() => toBankRecurrenceStatus('PAUSED' as RecurrenceStatus)).toThrow(RangeError);
  });

  it.each([
    ['AGUARDANDO_DEFINICAO', 'AWAITING_DEFINITION'],
    ['JORNADA_1', 'JOURNEY_1'],
    ['JORNADA_2', 'JOURNEY_2'],
    ['JORNADA_3', 'JOURNEY_3'],
    ['JORNADA_4', 'JOURNEY_4'],
  ] as const)('journey %s is %s, both ways', (theirs, ours) => {
    expect(fromBankJourney(theirs)).toBe(ours);
    expect(toBankJourney(ours)).toBe(theirs);
  });

  it('reads a recurrence without ativacao as awaiting definition', () => {
    expect(fromBankJourney(undefined)).toBe('AWAITING_DEFINITION');
  });
});

describe('solicitation status: the path of the alert, plus the outcome', () => {
  const history = (...statuses: SolicRecStatus[]): Atualizacao<SolicRecStatus>[] => statuses.map((status) => ({ status, data: '2025-01-01T00:00:00.000Z' }));

  it.each([
    ['CRIADA', { status: 'CREATED', outcome: 'PENDING' }],
    ['ENVIADA', { status: 'SENT', outcome: 'PENDING' }],
    ['RECEBIDA', { status: 'RECEIVED', outcome: 'PENDING' }],
    ['ACEITA', { status: 'RECEIVED', outcome: 'ACCEPTED' }],
    ['REJEITADA', { status: 'RECEIVED', outcome: 'REJECTED' }],
    ['CANCELADA', { status: 'CANCELLED', outcome: 'CANCELLED' }],
  ] as const)('%s', (theirs, expected) => {
    expect(fromBankSolicitationStatus(theirs)).toEqual(expected);
  });

  it('an expired alert stays at the last step its history shows', () => {
    expect(fromBankSolicitationStatus('EXPIRADA', history('CRIADA', 'ENVIADA', 'EXPIRADA'))).toEqual({ status: 'SENT', outcome: 'EXPIRED' });
    expect(fromBankSolicitationStatus('EXPIRADA', history('CRIADA', 'ENVIADA', 'RECEBIDA', 'EXPIRADA'))).toEqual({ status: 'RECEIVED', outcome: 'EXPIRED' });
    expect(fromBankSolicitationStatus('EXPIRADA')).toEqual({ status: 'CREATED', outcome: 'EXPIRED' });
  });
});

describe('amounts on the wire', () => {
  it.each([
    [3500, '35.00'],
    [5, '0.05'],
    [0, '0.00'],
    [120009, '1200.09'],
    [999_999_999_999, '9999999999.99'],
  ])('%i centavos is "%s", both ways', (centavos, valor) => {
    expect(centavosToValor(centavos)).toBe(valor);
    expect(valorToCentavos(valor)).toBe(centavos);
  });

  it.each(['35', '35.0', '35.000', '-1.00', '1,00', ' 1.00', '12345678901.00', 35])('refuses %p as a valor', (valor) => {
    expect(valorToCentavos(valor)).toBeUndefined();
  });

  it.each([-1, 1.5, 10 ** 12])('cannot write %p centavos', (centavos) => {
    expect(() => centavosToValor(centavos)).toThrow(RangeError);
  });
});

describe('payout status', () => {
  it.each([
    ['EM_PROCESSAMENTO', PayoutStatus.processing, 4],
    ['REALIZADO', PayoutStatus.completed, 1],
    ['CANCELADO', PayoutStatus.canceled, 2],
    ['NAO_REALIZADO', PayoutStatus.rejected, 3],
  ] as const)('%s is the platform code %i, both ways', (theirs, ours, code) => {
    expect(payoutStatusOf(theirs)).toBe(ours);
    expect(ours).toBe(code);
    expect(toBankPayoutStatus(ours)).toBe(theirs);
  });

  it('has no bank status for 0 (created, not yet at the bank) and throws on a status it does not know', () => {
    expect(() => toBankPayoutStatus(PayoutStatus.created)).toThrow(RangeError);
    expect(() => payoutStatusOf('DEVOLVIDO' as PagamentoStatus)).toThrow(RangeError);
  });
});
