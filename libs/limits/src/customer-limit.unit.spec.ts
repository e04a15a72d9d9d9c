import { CustomerLimitData } from '@pixauto/contracts';
import { validation } from '@pixauto/errors';
import { fold } from '@pixauto/event-store';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { customerLimit, CustomerLimitEvent } from './customer-limit';

const byAmount: CustomerLimitData = {
  document_number: '52998224725',
  limit_type: 'cashin',
  mechanism: 'amount',
  amount_centavos: 15050,
  quantity: null,
  details: null,
};
const byQuantity: CustomerLimitData = { ...byAmount, mechanism: 'quantity', amount_centavos: null, quantity: 3 };
const set = (data: CustomerLimitData) => ({ type: 'SetCustomerLimit' as const, data });
const given = DeciderSpecification.for(customerLimit);
const created: CustomerLimitEvent = { type: 'customer_limit.created', data: byAmount };

describe('customer limit', () => {
  it('creates a limit that does not exist yet', () => {
    given()
      .when(set(byAmount))
      .then([{ type: 'customer_limit.created', data: byAmount }]);
  });

  it('replaces the limit of the same document and type, mechanism included', () => {
    given(created)
      .when(set(byQuantity))
      .then([{ type: 'customer_limit.updated', data: byQuantity }]);
  });

  it('records nothing when the limit is set to what it already is', () => {
    given(created)
      .when(set({ ...byAmount }))
      .then([]);
  });

  it('treats a changed note as a change', () => {
    given(created)
      .when(set({ ...byAmount, details: 'raised after review' }))
      .thenMatches([{ type: 'customer_limit.updated' }]);
  });

  it.each([
    [{ ...byAmount, amount_centavos: 0 }, 'body.amount must be a positive number'],
    [{ ...byAmount, amount_centavos: -1 }, 'body.amount must be a positive number'],
    [{ ...byAmount, amount_centavos: null }, 'body.amount must be a positive number'],
    [{ ...byQuantity, quantity: 0 }, 'body.quantity must be a positive integer'],
    [{ ...byQuantity, quantity: 1.5 }, 'body.quantity must be a positive integer'],
    [{ ...byQuantity, amount_centavos: 100 }, 'body.quantity must be a positive integer'],
  ])('accepts only positive values (8.2 item 6): %p', (data, message) => {
    given().when(set(data)).thenRefuses(validation(message));
  });

  it('folds to the latest limit', () => {
    const state = fold(customerLimit, [
      { type: 'customer_limit.created', data: byAmount },
      { type: 'customer_limit.updated', data: byQuantity },
    ] as CustomerLimitEvent[]);
    expect(state).toEqual({ status: 'configured', limit: byQuantity });
  });
});
