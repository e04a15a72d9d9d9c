import { PixChargePaidData, validatePixChargeQuery } from '@pixauto/contracts';
import { fold } from '@pixauto/event-store';
import { pixCharge } from './pix-charge';

const paid: PixChargePaidData = {
  id: 7,
  transaction_id: 'plano-anual-0001-ativacao',
  amount_centavos: 4000,
  provider: 'PROVIDER_A',
  created_at: '2026-11-22T10:00:00.000Z',
  paid_at: '2026-11-22T10:05:00.000Z',
  origin: { recurrence_id: 'r1', activation_charge_id: 'c1' },
};

describe('pix charge', () => {
  it('records a paid deposit once: a redelivered approval records nothing more', () => {
    expect(pixCharge.decide({ type: 'RecordPaidDeposit', data: paid }, pixCharge.initialState)).toEqual({
      ok: true,
      events: [{ type: 'pix_charge.paid', data: paid }],
    });
    const state = fold(pixCharge, [{ type: 'pix_charge.paid', data: paid }]);
    expect(pixCharge.decide({ type: 'RecordPaidDeposit', data: { ...paid, id: 8 } }, state)).toEqual({ ok: true, events: [] });
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
