import type { CobRNotification, TentativaCobR } from '@pixauto/bank';
import { chargeCommandFor } from './charges';

// What the bank reports of a debit, as the one charge command it implies (the callback and the reconciliation).

const attempt = (status: TentativaCobR['status'], dataLiquidacao: string, extra: Partial<TentativaCobR> = {}): TentativaCobR => ({
  dataLiquidacao,
  tipo: 'AGND',
  status,
  endToEndId: 'E1',
  atualizacao: [{ status, data: `${dataLiquidacao}T12:00:00.000Z` }],
  ...extra,
});
const cobr = (status: CobRNotification['status'], tentativas: TentativaCobR[], extra: Partial<CobRNotification> = {}): CobRNotification => ({
  idRec: 'RR1',
  txid: 't1',
  status,
  atualizacao: [{ status, data: '2027-01-31T12:00:00.000Z' }],
  tentativas,
  ...extra,
});

describe('chargeCommandFor', () => {
  it("reads a settled debit as paid, with the Pix payment's time and end-to-end id", () => {
    const paid = cobr('CONCLUIDA', [attempt('PAGA', '2027-01-31')], {
      pix: [{ endToEndId: 'E9', txid: 't1', valor: '49.90', horario: '2027-01-31T09:00:00.000Z' }],
    });
    expect(chargeCommandFor('c1', paid, 'notification')).toEqual({
      type: 'RecordChargePaid',
      charge_id: 'c1',
      paid_at: '2027-01-31T09:00:00.000Z',
      end_to_end_id: 'E9',
    });
  });

  it('reads a refused attempt with nothing pending as failed, with its date and reason', () => {
    const failed = cobr('ATIVA', [attempt('REJEITADA', '2027-01-31', { rejeicao: { codigo: 'AM02', descricao: 'recusada' } })]);
    expect(chargeCommandFor('c1', failed, 'notification')).toEqual({
      type: 'RecordChargeFailed',
      charge_id: 'c1',
      attempt_date: '2027-01-31',
      reason: { code: 'AM02', description: 'recusada' },
    });
  });

  it('implies nothing while an attempt is pending, even after an earlier refusal', () => {
    expect(chargeCommandFor('c1', cobr('ATIVA', [attempt('AGENDADA', '2027-01-31')]), 'notification')).toBeUndefined();
    expect(chargeCommandFor('c1', cobr('ATIVA', [attempt('REJEITADA', '2027-01-31'), attempt('AGENDADA', '2027-02-02')]), 'notification')).toBeUndefined();
  });

  it("applies a cancellation we asked for only when reconciling; the bank's own always", () => {
    const ours = cobr('CANCELADA', [attempt('CANCELADA', '2027-01-31')], {
      encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'pedido do recebedor' } },
    });
    expect(chargeCommandFor('c1', ours, 'notification')).toBeUndefined();
    expect(chargeCommandFor('c1', ours, 'reconcile')).toEqual({ type: 'CancelCharge', charge_id: 'c1', by: 'bank' });
    const theirs = cobr('CANCELADA', [], { encerramento: { cancelamento: { solicitante: 'PSP_PAGADOR', codigo: 'ACCT', descricao: 'conta encerrada' } } });
    expect(chargeCommandFor('c1', theirs, 'notification')).toEqual({ type: 'CancelCharge', charge_id: 'c1', by: 'bank' });
  });
});
