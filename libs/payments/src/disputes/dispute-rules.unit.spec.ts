import { DisputeRecordData, PixChargeRecordData, RefundRecordData } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { fold } from '@pixauto/event-store';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { pixCharge, PixChargeCommand, PixChargeEvent } from '../pix-charge';

// A dispute's rules (docs/decisions/disputes.md), on its payment's stream: given the payment's past, when the bank or the
// merchant acts, then events or a refusal.

const paidCharge: PixChargeRecordData = {
  id: 7,
  transaction_id: 'pedido-1',
  amount_centavos: 15050,
  status: 'PAID',
  provider: 'PROVIDER_A',
  payer: { document_number: '52998224725', name: 'Maria Silva' },
  description: 'Pedido 1',
  webhook: null,
  pix_copy_paste: null,
  expires_at: '2026-11-24T13:00:00.000Z',
  created_at: '2026-11-24T12:00:00.000Z',
  paid_at: '2026-11-24T12:10:00.000Z',
  bank: { txid: 'PIXAUTOCS00000000000000000007', location: '127.0.0.1:4010/qr/v2/abc' },
  e2e_id: 'E87654321202611241210abcdefghijk',
  origin: null,
};
const created: PixChargeEvent = { type: 'pix_charge.created', data: { charge: { ...paidCharge, status: 'PENDING', paid_at: null, e2e_id: null } } };
const paid: PixChargeEvent = { type: 'pix_charge.paid', data: { charge: paidCharge } };

const DEADLINE = '2026-12-01T12:00:00.000Z';
const open = (claimed = 15050, infraction = 'INF-1', id = 1): PixChargeCommand => ({
  type: 'OpenDispute',
  dispute: { id, infraction_id: infraction, reason: 'FRAUD', claimed_centavos: claimed, defence_deadline: DEADLINE, opened_at: '2026-11-25T09:00:00.000Z' },
});
const opened = (blocked: number, claimed = 15050, infraction = 'INF-1', id = 1): DisputeRecordData => ({
  id,
  infraction_id: infraction,
  reason: 'FRAUD',
  status: 'OPEN',
  claimed_centavos: claimed,
  blocked_centavos: blocked,
  defence_deadline: DEADLINE,
  defence: null,
  return: null,
  opened_at: '2026-11-25T09:00:00.000Z',
  closed_at: null,
});
const disputeEvent = (
  type: 'pix_charge.dispute_opened' | 'pix_charge.dispute_defended' | 'pix_charge.dispute_returned' | 'pix_charge.dispute_rejected',
  dispute: DisputeRecordData,
  returnedAmount = 0,
  charge: PixChargeRecordData = paidCharge,
): PixChargeEvent => ({ type, data: { charge: { ...charge, dispute: { id: dispute.id, status: dispute.status, returned_amount: returnedAmount } }, dispute } });

const defence = {
  text: 'The customer received the goods.',
  evidence: [{ id: 1, file_name: 'nota.pdf', content_type: 'application/pdf' as const, size_bytes: 1200 }],
};
const defend = (at: string, id = 1): PixChargeCommand => ({ type: 'DefendDispute', disputeId: id, defence: { ...defence, submitted_at: at } });
const returnOf = (amount: number) => ({
  amount_centavos: amount,
  e2e_id: 'D12345678202612021200medreturn01',
  natureza: 'MED_FRAUDE' as const,
  returned_at: '2026-12-02T12:00:00.000Z',
});
const conclude = (amount: number | null, infraction = 'INF-1'): PixChargeCommand => ({
  type: 'ConcludeDispute',
  infractionId: infraction,
  outcome: amount === null ? { status: 'REJECTED', closed_at: '2026-12-02T12:00:00.000Z' } : { status: 'RETURNED', return: returnOf(amount) },
});

const refund = (id: number, amount: number, status: RefundRecordData['status'] = 'PROCESSING'): PixChargeEvent => ({
  type: status === 'PROCESSING' ? 'pix_charge.refund_requested' : status === 'REFUNDED' ? 'pix_charge.refunded' : 'pix_charge.refund_failed',
  data: {
    charge: paidCharge,
    refund: {
      id,
      refund_id: `r-${id}`,
      amount_centavos: amount,
      status,
      bank_id: `PIXAUTORS${String(id).padStart(20, '0')}`,
      rtr_id: null,
      failure_reason: null,
      created_at: '2026-11-24T12:20:00.000Z',
      refunded_at: null,
    },
  },
});
const askRefund = (id: number, amount: number | undefined): PixChargeCommand => ({
  type: 'RequestRefund',
  refund: { id, refund_id: `r-${id}`, amount_centavos: amount, bank_id: `PIXAUTORS${String(id).padStart(20, '0')}`, created_at: '2026-11-26T12:00:00.000Z' },
});

const given = DeciderSpecification.for(pixCharge);

describe('dispute: opening', () => {
  it('opens on a PAID payment, blocking the claim, and the charge shows it', () => {
    given(created, paid)
      .when(open())
      .then([disputeEvent('pix_charge.dispute_opened', opened(15050))]);
    given(created, paid)
      .when(open(5000))
      .then([disputeEvent('pix_charge.dispute_opened', opened(5000, 5000))]);
  });

  it('blocks at most what was paid less refunds not failed and earlier returns', () => {
    given(created, paid, refund(1, 10000))
      .when(open())
      .then([disputeEvent('pix_charge.dispute_opened', opened(5050))]);
    given(created, paid, refund(1, 10000), refund(1, 10000, 'FAILED'))
      .when(open())
      .then([disputeEvent('pix_charge.dispute_opened', opened(15050))]);
    given(created, paid, refund(1, 15050))
      .when(open())
      .then([disputeEvent('pix_charge.dispute_opened', opened(0))]);
    const first = opened(15050);
    const returned = { ...first, status: 'RETURNED' as const, return: returnOf(6000), closed_at: '2026-12-02T12:00:00.000Z' };
    given(created, paid, disputeEvent('pix_charge.dispute_opened', first), disputeEvent('pix_charge.dispute_returned', returned, 60))
      .when(open(15050, 'INF-2', 2))
      .then([
        disputeEvent('pix_charge.dispute_opened', opened(9050, 15050, 'INF-2', 2), 60, {
          ...paidCharge,
          dispute: { id: 1, status: 'RETURNED', returned_amount: 60 },
        }),
      ]);
  });

  it('records an infraction reported again once, and refuses a second dispute while one is in progress', () => {
    const first = disputeEvent('pix_charge.dispute_opened', opened(15050));
    given(created, paid, first).when(open()).then([]);
    given(created, paid, first)
      .when(open(100, 'INF-2', 2))
      .thenRefuses(validation('the transaction already has a dispute in progress'));
  });

  it('refuses a payment that is not PAID, or unknown', () => {
    given(created).when(open()).thenRefuses(validation('the transaction is PENDING: only a PAID transaction can be disputed'));
    given().when(open()).thenRefuses(notFound('Transaction not found!'));
  });
});

describe('dispute: defence', () => {
  const first = disputeEvent('pix_charge.dispute_opened', opened(15050));

  it('takes one defence up to the deadline, included', () => {
    const defended = { ...opened(15050), status: 'DEFENDED' as const, defence: { ...defence, submitted_at: DEADLINE } };
    given(created, paid, first)
      .when(defend(DEADLINE))
      .then([disputeEvent('pix_charge.dispute_defended', defended)]);
  });

  it('refuses a late defence, a second one, one on a concluded dispute and an unknown dispute', () => {
    given(created, paid, first)
      .when(defend('2026-12-01T12:00:00.001Z'))
      .thenRefuses(validation('the deadline for a defence passed at 2026-12-01T12:00:00.000Z: no defence is accepted any more'));
    const defended = disputeEvent('pix_charge.dispute_defended', { ...opened(15050), status: 'DEFENDED', defence: { ...defence, submitted_at: DEADLINE } });
    given(created, paid, first, defended)
      .when(defend(DEADLINE))
      .thenRefuses(validation('a defence has already been sent for this dispute: only one is accepted'));
    const rejected = disputeEvent('pix_charge.dispute_rejected', { ...opened(15050), status: 'REJECTED', closed_at: '2026-11-26T00:00:00.000Z' });
    given(created, paid, first, rejected)
      .when(defend('2026-11-27T00:00:00.000Z'))
      .thenRefuses(validation('the dispute is REJECTED: a defence is accepted only while it is OPEN'));
    given(created, paid, first).when(defend(DEADLINE, 9)).thenRefuses(notFound('Dispute not found'));
    given().when(defend(DEADLINE)).thenRefuses(notFound('Dispute not found'));
  });
});

describe('dispute: conclusion', () => {
  const first = disputeEvent('pix_charge.dispute_opened', opened(15050));
  const defended = disputeEvent('pix_charge.dispute_defended', { ...opened(15050), status: 'DEFENDED', defence: { ...defence, submitted_at: DEADLINE } });

  it('returns the money, whole or in part, with the return’s id and natureza, defended or not', () => {
    const returned = (amount: number, reais: number): PixChargeEvent =>
      disputeEvent(
        'pix_charge.dispute_returned',
        { ...opened(15050), status: 'RETURNED', return: returnOf(amount), closed_at: '2026-12-02T12:00:00.000Z' },
        reais,
      );
    given(created, paid, first)
      .when(conclude(15050))
      .then([returned(15050, 150.5)]);
    const partly = returned(7525, 75.25);
    given(created, paid, first)
      .when(conclude(7525))
      .thenMatches([{ type: 'pix_charge.dispute_returned', data: { dispute: { status: 'RETURNED' } } }]);
    expect(partly.data).toMatchObject({ charge: { dispute: { returned_amount: 75.25 } } });
    given(created, paid, first, defended)
      .when(conclude(7525))
      .thenMatches([{ data: { dispute: { status: 'RETURNED', defence: { text: defence.text }, return: { amount_centavos: 7525 } } } }]);
  });

  it('rejects the claim and releases the money', () => {
    given(created, paid, first, defended)
      .when(conclude(null))
      .thenMatches([{ type: 'pix_charge.dispute_rejected', data: { dispute: { status: 'REJECTED', return: null, closed_at: '2026-12-02T12:00:00.000Z' } } }]);
  });

  it('never returns more than the block; a conclusion reported again records nothing', () => {
    given(created, paid, refund(1, 10000), disputeEvent('pix_charge.dispute_opened', opened(5050)))
      .when(conclude(5051))
      .thenRefuses(validation('the return must be at most the blocked amount: 50.50'));
    const rejected = disputeEvent('pix_charge.dispute_rejected', { ...opened(15050), status: 'REJECTED', closed_at: '2026-12-02T12:00:00.000Z' });
    given(created, paid, first, rejected).when(conclude(15050)).then([]);
    given(created, paid, first).when(conclude(100, 'INF-9')).thenRefuses(notFound('Dispute not found'));
  });
});

describe('dispute and refunds on one payment: never more than was paid', () => {
  const first = disputeEvent('pix_charge.dispute_opened', opened(10000, 10000));

  it('keeps a refund off what a dispute in progress holds', () => {
    given(created, paid, first)
      .when(askRefund(1, 5051))
      .thenRefuses(validation('body.amount must be at most what is left to refund of the transaction: 50.50 (100.00 is held by a dispute in progress)'));
    given(created, paid, first)
      .when(askRefund(1, undefined))
      .thenMatches([{ type: 'pix_charge.refund_requested', data: { refund: { amount_centavos: 5050 } } }]);
    given(created, paid, disputeEvent('pix_charge.dispute_opened', opened(15050)))
      .when(askRefund(1, 1))
      .thenRefuses(validation('body.amount must be at most what is left to refund of the transaction: 0.00 (150.50 is held by a dispute in progress)'));
  });

  it('gives a rejected dispute’s block back to refunds, and keeps a return off them', () => {
    const rejected = disputeEvent('pix_charge.dispute_rejected', { ...opened(10000, 10000), status: 'REJECTED', closed_at: '2026-12-02T12:00:00.000Z' });
    given(created, paid, first, rejected)
      .when(askRefund(1, undefined))
      .thenMatches([{ data: { refund: { amount_centavos: 15050 } } }]);
    const returned = disputeEvent(
      'pix_charge.dispute_returned',
      { ...opened(10000, 10000), status: 'RETURNED', return: returnOf(10000), closed_at: '2026-12-02T12:00:00.000Z' },
      100,
    );
    given(created, paid, first, returned)
      .when(askRefund(1, 5051))
      .thenRefuses(validation('body.amount must be at most what is left to refund of the transaction: 50.50'));
    given(created, paid, first, returned, refund(1, 5050)).when(askRefund(2, 1)).thenRefuses(validation('the transaction has already been refunded in full'));
  });

  it('folds disputes beside refunds, the charge still PAID', () => {
    expect(fold(pixCharge, [created, paid, refund(1, 5050), first])).toMatchObject({
      status: 'PAID',
      refunds: [{ id: 1 }],
      disputes: [{ id: 1, status: 'OPEN', blocked_centavos: 10000 }],
      charge: { dispute: { id: 1, status: 'OPEN', returned_amount: 0 } },
    });
  });
});
