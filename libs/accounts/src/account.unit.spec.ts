import { AccountOpenedData } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { account, AccountCommand, AccountEvent, AccountState, rateLimitsOf } from './account';

const opened: AccountOpenedData = {
  account_id: '7f0c1a2b-0000-4000-8000-000000000001',
  name: 'Loja',
  wallet: true,
  cashin_provider: 'PROVIDER_A',
  providers: [],
  webhook_secret: 'whsec_old',
};
const openedEvent: AccountEvent = { type: 'account.opened', data: opened };
const open: AccountState = { status: 'open', account: opened };
const at = new Date('2026-11-25T12:00:00.000Z');
const given = DeciderSpecification.for(account);

describe('account: opening', () => {
  it('opens an account once; a second opening of the same id is refused', () => {
    given().when({ type: 'OpenAccount', data: opened }).then([openedEvent]);
    given(openedEvent).when({ type: 'OpenAccount', data: opened }).thenRefuses(validation('account already exists'));
  });
});

describe('account: webhook secret rotation', () => {
  it('records the new secret, the replaced one and when it stops signing (24 hours later)', () => {
    given(openedEvent)
      .when({ type: 'RotateWebhookSecret', webhook_secret: 'whsec_new', at })
      .then([
        {
          type: 'account.webhook_secret_rotated',
          data: { webhook_secret: 'whsec_new', previous_secret: 'whsec_old', previous_valid_until: '2026-11-26T12:00:00.000Z' },
        },
      ]);
  });

  it('refuses an unknown account', () => {
    given().when({ type: 'RotateWebhookSecret', webhook_secret: 'whsec_new', at }).thenRefuses(notFound('Account not found'));
  });

  it('makes the new secret the account’s', () => {
    const rotated = account.evolve(open, {
      type: 'account.webhook_secret_rotated',
      data: { webhook_secret: 'whsec_new', previous_secret: 'whsec_old', previous_valid_until: '2026-11-26T12:00:00.000Z' },
    });
    expect(rotated).toEqual({ status: 'open', account: { ...opened, webhook_secret: 'whsec_new' } });
  });
});

describe('account: rate limits', () => {
  const change = (rate_limit: { production?: number; sandbox?: number }): AccountCommand => ({ type: 'ChangeAccount', data: { rate_limit } });

  it('records both environments as they are after the change; the one not named keeps its limit', () => {
    given(openedEvent)
      .when(change({ sandbox: 25 }))
      .then([{ type: 'account.changed', data: { rate_limit: { production: 5000, sandbox: 25 } } }]);
    const limited: AccountEvent = { type: 'account.opened', data: { ...opened, rate_limit: { production: 100, sandbox: 25 } } };
    given(limited)
      .when(change({ production: 200 }))
      .then([{ type: 'account.changed', data: { rate_limit: { production: 200, sandbox: 25 } } }]);
  });

  it('records nothing when the limits stay as they are (an account opened before them has the defaults)', () => {
    given(openedEvent)
      .when(change({ production: 5000 }))
      .then([]);
    expect(rateLimitsOf(opened)).toEqual({ production: 5000, sandbox: 5000 });
  });

  it('refuses an unknown account', () => {
    given()
      .when(change({ sandbox: 25 }))
      .thenRefuses(notFound('Account not found'));
  });

  it('folds a change into the account', () => {
    const changed = account.evolve(open, { type: 'account.changed', data: { rate_limit: { production: 100, sandbox: 25 } } });
    expect(changed.status === 'open' && rateLimitsOf(changed.account)).toEqual({ production: 100, sandbox: 25 });
  });
});
