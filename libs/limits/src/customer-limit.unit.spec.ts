import { CustomerLimitData } from '@pixauto/contracts';
import { fold } from '@pixauto/event-store';
import { customerLimit, CustomerLimitEvent } from './customer-limit';

const byAmount: CustomerLimitData = { document_number: '52998224725', limit_type: 'cashin', mechanism: 'amount', amount_centavos: 15050, quantity: null, details: null };
const byQuantity: CustomerLimitData = { ...byAmount, mechanism: 'quantity', amount_centavos: null, quantity: 3 };
const set = (data: CustomerLimitData) => ({ type: 'SetCustomerLimit' as const, data });
const eventsOf = (history: CustomerLimitEvent[], data: CustomerLimitData) => customerLimit.decide(set(data), fold(customerLimit, history));

describe('customer limit', () => {
  it('creates a limit that does not exist yet', () => {
    expect(eventsOf([], byAmount)).toEqual({ ok: true, events: [{ type: 'customer_limit.created', data: byAmount }] });
  });

  it('replaces the limit of the same document and type, mechanism included', () => {
    const history: CustomerLimitEvent[] = [{ type: 'customer_limit.created', data: byAmount }];
    expect(eventsOf(history, byQuantity)).toEqual({ ok: true, events: [{ type: 'customer_limit.updated', data: byQuantity }] });
  });

  it('records nothing when the limit is set to what it already is', () => {
    const history: CustomerLimitEvent[] = [{ type: 'customer_limit.created', data: byAmount }];
    expect(eventsOf(history, { ...byAmount })).toEqual({ ok: true, events: [] });
  });

  it('treats a changed note as a change', () => {
    const history: CustomerLimitEvent[] = [{ type: 'customer_limit.created', data: byAmount }];
    expect(eventsOf(history, { ...byAmount, details: 'raised after review' })).toMatchObject({ ok: true, events: [{ type: 'customer_limit.updated' }] });
  });

  it.each([
    [{ ...byAmount, amount_centavos: 0 }, 'body.amount must be a positive number'],
    [{ ...byAmount, amount_centavos: -1 }, 'body.amount must be a positive number'],
    [{ ...byAmount, amount_centavos: null }, 'body.amount must be a positive number'],
    [{ ...byQuantity, quantity: 0 }, 'body.quantity must be a positive integer'],
    [{ ...byQuantity, quantity: 1.5 }, 'body.quantity must be a positive integer'],
    [{ ...byQuantity, amount_centavos: 100 }, 'body.quantity must be a positive integer'],
  ])('accepts only positive values (8.2 item 6): %p', (data, message) => {
    expect(eventsOf([], data)).toEqual({ ok: false, refusal: { kind: 'validation', problems: [message] } });
  });

  it('folds to the latest limit', () => {
    const state = fold(customerLimit, [
      { type: 'customer_limit.created', data: byAmount },
      { type: 'customer_limit.updated', data: byQuantity },
    ] as CustomerLimitEvent[]);
    expect(state).toEqual({ status: 'configured', limit: byQuantity });
  });
});
