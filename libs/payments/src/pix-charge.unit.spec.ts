import { ActivationPaidDataV1, PixChargeRecordData, RefundRecordData, validatePixChargeQuery } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { fold } from '@pixauto/event-store';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { pixCharge, PixChargeCommand, PixChargeEvent } from './pix-charge';

// The cash-in charge's rules (docs/decisions/cash-in.md), given its past events, when a command, then events or a refusal.

const pending: PixChargeRecordData = {
  id: 7,
  transaction_id: 'pedido-1',
  amount_centavos: 15050,
  status: 'PENDING',
  provider: 'PROVIDER_A',
  payer: { document_number: '52998224725', name: 'Maria Silva' },
  description: 'Pedido 1',
  webhook: 'https://shop.example.com/pix',
  pix_copy_paste: '000201010212...',
  expires_at: '2026-11-24T13:00:00.000Z',
  created_at: '2026-11-24T12:00:00.000Z',
  paid_at: null,
  bank: { txid: 'PIXAUTOCS00000000000000000007', location: '127.0.0.1:4010/qr/v2/abc' },
  e2e_id: null,
  origin: null,
};

const created: PixChargeEvent = { type: 'pix_charge.created', data: { charge: pending } };
const payment = { paid_at: '2026-11-24T12:10:00.000Z', e2e_id: 'E87654321202611241210abcdefghijk' };
const paidCharge: PixChargeRecordData = { ...pending, status: 'PAID', paid_at: payment.paid_at, e2e_id: payment.e2e_id, pix_copy_paste: null };
const paid: PixChargeEvent = { type: 'pix_charge.paid', data: { charge: paidCharge } };
const expiredCharge: PixChargeRecordData = { ...pending, status: 'EXPIRED', pix_copy_paste: null };
const expired: PixChargeEvent = { type: 'pix_charge.expired', data: { charge: expiredCharge } };

const given = DeciderSpecification.for(pixCharge);
const NOT_FOUND = notFound('Pix charge not found');

describe('pix charge: creation', () => {
  it('creates a PENDING charge carrying the whole record', () => {
    given().when({ type: 'CreatePixCharge', charge: pending }).then([created]);
    expect(fold(pixCharge, [created])).toEqual({ status: 'PENDING', charge: pending, refunds: [], disputes: [] });
  });

  it('refuses a second charge with the same transaction_id (same stream), whatever became of the first', () => {
    for (const history of [[created], [created, paid], [created, expired]]) {
      given(...history)
        .when({ type: 'CreatePixCharge', charge: { ...pending, id: 8 } })
        .thenRefuses(validation('body.transaction_id already exists'));
    }
  });
});

describe('pix charge: payment', () => {
  it('pays a PENDING charge: PAID, paid_at and e2e id, the code voided', () => {
    given(created).when({ type: 'RecordPayment', payment }).then([paid]);
    expect(fold(pixCharge, [created, paid])).toEqual({ status: 'PAID', charge: paidCharge, refunds: [], disputes: [] });
  });

  it('records a payment once: the sandbox answer and the bank notification of it are one event', () => {
    given(created, paid)
      .when({ type: 'RecordPayment', payment: { ...payment, paid_at: '2026-11-24T12:10:01.000Z' } })
      .then([]);
  });

  it('records money that reached a charge as it expired', () => {
    given(created, expired).when({ type: 'RecordPayment', payment }).then([paid]);
  });

  it('lets the sandbox payer pay only a PENDING charge', () => {
    given(created).when({ type: 'CheckPayable' }).then([]);
    given(created, paid).when({ type: 'CheckPayable' }).thenRefuses(validation('the Pix charge is PAID: only a PENDING charge can be paid'));
    given(created, expired).when({ type: 'CheckPayable' }).thenRefuses(validation('the Pix charge is EXPIRED: only a PENDING charge can be paid'));
  });

  it('knows no charge that was never created', () => {
    given().when({ type: 'CheckPayable' }).thenRefuses(NOT_FOUND);
    given().when({ type: 'RecordPayment', payment }).thenRefuses(NOT_FOUND);
    given().when({ type: 'ExpirePixCharge' }).thenRefuses(NOT_FOUND);
  });
});

describe('pix charge: expiry', () => {
  it('expires a PENDING charge: EXPIRED, the code voided', () => {
    given(created).when({ type: 'ExpirePixCharge' }).then([expired]);
    expect(fold(pixCharge, [created, expired])).toEqual({ status: 'EXPIRED', charge: expiredCharge, refunds: [], disputes: [] });
  });

  it('leaves a paid or expired charge as it is', () => {
    given(created, paid).when({ type: 'ExpirePixCharge' }).then([]);
    given(created, expired).when({ type: 'ExpirePixCharge' }).then([]);
  });
});

describe('pix charge: journey 3 activation deposits', () => {
  const deposit: PixChargeRecordData = {
    ...pending,
    transaction_id: 'plano-anual-0001-ativacao',
    status: 'PAID',
    pix_copy_paste: null,
    paid_at: '2026-11-22T10:05:00.000Z',
    bank: null,
    origin: { recurrence_id: 'r1', activation_charge_id: 'c1' },
  };

  it('records a paid deposit once: a redelivered approval records nothing more', () => {
    const recorded: PixChargeEvent = { type: 'pix_charge.paid', data: { charge: deposit } };
    given().when({ type: 'RecordPaidDeposit', charge: deposit }).then([recorded]);
    given(recorded)
      .when({ type: 'RecordPaidDeposit', charge: { ...deposit, id: 8 } })
      .then([]);
  });

  it('still folds the first deposits, recorded with the version 1 payload', () => {
    const v1: ActivationPaidDataV1 = {
      id: 7,
      transaction_id: 'plano-anual-0001-ativacao',
      amount_centavos: 4000,
      provider: 'PROVIDER_A',
      created_at: '2026-11-22T10:00:00.000Z',
      paid_at: '2026-11-22T10:05:00.000Z',
      origin: { recurrence_id: 'r1', activation_charge_id: 'c1' },
    };
    const recordedV1: PixChargeEvent = { type: 'pix_charge.paid', data: v1 };
    expect(fold(pixCharge, [recordedV1])).toMatchObject({
      status: 'PAID',
      charge: { id: 7, amount_centavos: 4000, paid_at: v1.paid_at, origin: v1.origin, payer: null, pix_copy_paste: null },
    });
    given(recordedV1).when({ type: 'RecordPaidDeposit', charge: deposit }).then([]);
    given(recordedV1).when({ type: 'CheckPayable' }).thenRefuses(validation('the Pix charge is PAID: only a PENDING charge can be paid'));
  });
});

describe('GET /v2/pix query', () => {
  const message = (query: object) => {
    const result = validatePixChargeQuery(query);
    return result.ok ? result.value : result.refusal.kind === 'validation' && result.refusal.problems.join('. ');
  };
  it('takes exactly one of id and transaction_id', () => {
    expect(message({ id: '12' })).toEqual({ id: 12 });
    expect(message({ transaction_id: 'x-ativacao' })).toEqual({ transaction_id: 'x-ativacao' });
    expect(message({})).toBe('one of id, transaction_id is required');
    expect(message({ id: '1', transaction_id: 'x' })).toBe('please provide only one of id, transaction_id');
    expect(message({ id: 'abc' })).toBe('query.id must be a positive integer');
    expect(message({ id: '0' })).toBe('query.id must be a positive integer');
    expect(message({ id: '99999999999999999999' })).toBe('query.id must be a positive integer');
    expect(message({ id: '1e3' })).toBe('query.id must be a positive integer');
    expect(message({ id: ['1', '2'] })).toBe('query.id must be a positive integer');
    expect(message({ transaction_id: ['a', 'b'] })).toBe('query.transaction_id must be a string');
  });
});

describe('pix charge: refunds', () => {
  const ask = (id: number, amount: number | undefined, refundId: string | null = `r-${id}`): PixChargeCommand => ({
    type: 'RequestRefund',
    refund: { id, refund_id: refundId, amount_centavos: amount, bank_id: `PIXAUTORS${String(id).padStart(20, '0')}`, created_at: '2026-11-24T12:20:00.000Z' },
  });
  const requested = (id: number, amount: number, refundId: string | null = `r-${id}`): RefundRecordData => ({
    id,
    refund_id: refundId,
    amount_centavos: amount,
    status: 'PROCESSING',
    bank_id: `PIXAUTORS${String(id).padStart(20, '0')}`,
    rtr_id: null,
    failure_reason: null,
    created_at: '2026-11-24T12:20:00.000Z',
    refunded_at: null,
  });
  const event = (type: 'pix_charge.refund_requested' | 'pix_charge.refunded' | 'pix_charge.refund_failed', refund: RefundRecordData): PixChargeEvent => ({
    type,
    data: { charge: paidCharge, refund },
  });
  const refunded = (r: RefundRecordData) =>
    event('pix_charge.refunded', { ...r, status: 'REFUNDED', rtr_id: 'D12345678202611241220abcdefghijk', refunded_at: '2026-11-24T12:21:00.000Z' });
  const failed = (r: RefundRecordData) => event('pix_charge.refund_failed', { ...r, status: 'FAILED', failure_reason: 'Saldo insuficiente' });

  it('refunds what is left of a paid charge when no amount is given, PROCESSING', () => {
    given(created, paid)
      .when(ask(1, undefined))
      .then([event('pix_charge.refund_requested', requested(1, 15050))]);
  });

  it('takes several partial refunds up to the amount, and refuses one cent more', () => {
    const first = event('pix_charge.refund_requested', requested(1, 10000));
    given(created, paid, first)
      .when(ask(2, 5050))
      .then([event('pix_charge.refund_requested', requested(2, 5050))]);
    given(created, paid, first).when(ask(2, 5051)).thenRefuses(validation('body.amount must be at most what is left to refund of the transaction: 50.50'));
    const second = event('pix_charge.refund_requested', requested(2, 5050));
    given(created, paid, first, second).when(ask(3, undefined)).thenRefuses(validation('the transaction has already been refunded in full'));
  });

  it('gives a failed refund its amount and its refund_id back', () => {
    const first = requested(1, 15050);
    const history = [created, paid, event('pix_charge.refund_requested', first), failed(first)];
    given(...history)
      .when(ask(2, undefined, 'r-1'))
      .then([event('pix_charge.refund_requested', requested(2, 15050, 'r-1'))]);
  });

  it('refuses a refund_id the charge already has, and charges that are not PAID or whose payment the bank did not name', () => {
    const first = event('pix_charge.refund_requested', requested(1, 100));
    given(created, paid, first)
      .when(ask(2, 100, 'r-1'))
      .thenRefuses(validation('body.refund_id already exists'));
    given(created).when(ask(1, 100)).thenRefuses(validation('the transaction is PENDING: only a PAID transaction can be refunded'));
    given(created, expired).when(ask(1, 100)).thenRefuses(validation('the transaction is EXPIRED: only a PAID transaction can be refunded'));
    const untraced: PixChargeEvent = { type: 'pix_charge.paid', data: { charge: { ...paidCharge, e2e_id: null } } };
    given(untraced).when(ask(1, 100)).thenRefuses(validation('this transaction cannot be refunded: the bank named no payment for it'));
    given().when(ask(1, 100)).thenRefuses(notFound('Transaction not found!'));
  });

  it("records the bank's outcome once: REFUNDED with the return's id, or FAILED with its reason", () => {
    const r = requested(1, 15050);
    const history = [created, paid, event('pix_charge.refund_requested', r)];
    const done = {
      type: 'RecordRefundOutcome',
      refundId: 1,
      outcome: { status: 'REFUNDED', rtr_id: 'D12345678202611241220abcdefghijk', refunded_at: '2026-11-24T12:21:00.000Z' },
    } as const;
    given(...history)
      .when(done)
      .then([refunded(r)]);
    given(...history, refunded(r))
      .when(done)
      .then([]);
    given(...history)
      .when({ type: 'RecordRefundOutcome', refundId: 1, outcome: { status: 'FAILED', reason: 'Saldo insuficiente' } })
      .then([failed(r)]);
    given(...history, failed(r))
      .when(done)
      .then([]);
    given(...history)
      .when({ ...done, refundId: 9 })
      .thenRefuses(notFound('Refund not found'));
  });

  it('folds the refunds beside the charge, which stays PAID', () => {
    const r = requested(1, 15050);
    expect(fold(pixCharge, [created, paid, event('pix_charge.refund_requested', r), refunded(r)])).toMatchObject({
      status: 'PAID',
      refunds: [{ id: 1, status: 'REFUNDED', rtr_id: 'D12345678202611241220abcdefghijk' }],
    });
  });
});
