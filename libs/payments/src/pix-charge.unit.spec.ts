import { ActivationPaidDataV1, PixChargeRecordData, validatePixChargeQuery } from '@pixauto/contracts';
import { fold } from '@pixauto/event-store';
import { pixCharge, PixChargeCommand, PixChargeEvent } from './pix-charge';

// The cash-in charge's rules (platform.md §3, §4), given its past events, when a command, then events or a refusal.

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

const given = (...events: PixChargeEvent[]) => ({ when: (command: PixChargeCommand) => pixCharge.decide(command, fold(pixCharge, events)) });
const invalid = (message: string) => ({ ok: false, refusal: { kind: 'validation', problems: [message] } });
const NOT_FOUND = { ok: false, refusal: { kind: 'not_found', message: 'Pix charge not found' } };

describe('pix charge: creation', () => {
  it('creates a PENDING charge carrying the whole record', () => {
    expect(given().when({ type: 'CreatePixCharge', charge: pending })).toEqual({ ok: true, events: [created] });
    expect(fold(pixCharge, [created])).toEqual({ status: 'PENDING', charge: pending });
  });

  it('refuses a second charge with the same transaction_id (same stream), whatever became of the first', () => {
    for (const history of [[created], [created, paid], [created, expired]]) {
      expect(given(...history).when({ type: 'CreatePixCharge', charge: { ...pending, id: 8 } })).toEqual(invalid('body.transaction_id already exists'));
    }
  });
});

describe('pix charge: payment', () => {
  it('pays a PENDING charge: PAID, paid_at and e2e id, the code voided', () => {
    expect(given(created).when({ type: 'RecordPayment', payment })).toEqual({ ok: true, events: [paid] });
    expect(fold(pixCharge, [created, paid])).toEqual({ status: 'PAID', charge: paidCharge });
  });

  it('records a payment once: the sandbox answer and the bank notification of it are one event', () => {
    expect(given(created, paid).when({ type: 'RecordPayment', payment: { ...payment, paid_at: '2026-11-24T12:10:01.000Z' } })).toEqual({ ok: true, events: [] });
  });

  it('records money that reached a charge as it expired', () => {
    expect(given(created, expired).when({ type: 'RecordPayment', payment })).toEqual({ ok: true, events: [paid] });
  });

  it('lets the sandbox payer pay only a PENDING charge', () => {
    expect(given(created).when({ type: 'CheckPayable' })).toEqual({ ok: true, events: [] });
    expect(given(created, paid).when({ type: 'CheckPayable' })).toEqual(invalid('the Pix charge is PAID: only a PENDING charge can be paid'));
    expect(given(created, expired).when({ type: 'CheckPayable' })).toEqual(invalid('the Pix charge is EXPIRED: only a PENDING charge can be paid'));
  });

  it('knows no charge that was never created', () => {
    expect(given().when({ type: 'CheckPayable' })).toEqual(NOT_FOUND);
    expect(given().when({ type: 'RecordPayment', payment })).toEqual(NOT_FOUND);
    expect(given().when({ type: 'ExpirePixCharge' })).toEqual(NOT_FOUND);
  });
});

describe('pix charge: expiry', () => {
  it('expires a PENDING charge: EXPIRED, the code voided', () => {
    expect(given(created).when({ type: 'ExpirePixCharge' })).toEqual({ ok: true, events: [expired] });
    expect(fold(pixCharge, [created, expired])).toEqual({ status: 'EXPIRED', charge: expiredCharge });
  });

  it('leaves a paid or expired charge as it is', () => {
    expect(given(created, paid).when({ type: 'ExpirePixCharge' })).toEqual({ ok: true, events: [] });
    expect(given(created, expired).when({ type: 'ExpirePixCharge' })).toEqual({ ok: true, events: [] });
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
    const decision = given().when({ type: 'RecordPaidDeposit', charge: deposit });
    expect(decision).toEqual({ ok: true, events: [{ type: 'pix_charge.paid', data: { charge: deposit } }] });
    const events = decision.ok ? decision.events : [];
    expect(given(...events).when({ type: 'RecordPaidDeposit', charge: { ...deposit, id: 8 } })).toEqual({ ok: true, events: [] });
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
    const state = fold(pixCharge, [{ type: 'pix_charge.paid', data: v1 }]);
    expect(state).toMatchObject({ status: 'PAID', charge: { id: 7, amount_centavos: 4000, paid_at: v1.paid_at, origin: v1.origin, payer: null, pix_copy_paste: null } });
    expect(pixCharge.decide({ type: 'RecordPaidDeposit', charge: deposit }, state)).toEqual({ ok: true, events: [] });
    expect(pixCharge.decide({ type: 'CheckPayable' }, state)).toEqual(invalid('the Pix charge is PAID: only a PENDING charge can be paid'));
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
  });
});
