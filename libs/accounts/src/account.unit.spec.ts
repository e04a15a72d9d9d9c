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

describe('account: a webhook secret per environment', () => {
  /** An account opened when one secret signed both environments: no sandbox secret of its own. */
  const legacy: AccountOpenedData = { ...opened, webhook_secret: 'whsec_shared' };
  const legacyEvent: AccountEvent = { type: 'account.opened', data: legacy };
  const withBoth: AccountEvent = { type: 'account.opened', data: { ...opened, sandbox_webhook_secret: 'whsec_sandbox_old' } };

  it('rotates one environment: the new secret, the replaced one of that environment and when it stops signing (24 hours later)', () => {
    given(withBoth)
      .when({ type: 'RotateWebhookSecret', environment: 'production', webhook_secret: 'whsec_new', at })
      .then([
        {
          type: 'account.webhook_secret_rotated',
          data: { environment: 'production', webhook_secret: 'whsec_new', previous_secret: 'whsec_old', previous_valid_until: '2026-11-26T12:00:00.000Z' },
        },
      ]);
    given(withBoth)
      .when({ type: 'RotateWebhookSecret', environment: 'sandbox', webhook_secret: 'whsec_new', at })
      .then([
        {
          type: 'account.webhook_secret_rotated',
          data: { environment: 'sandbox', webhook_secret: 'whsec_new', previous_secret: 'whsec_sandbox_old', previous_valid_until: '2026-11-26T12:00:00.000Z' },
        },
      ]);
  });

  it('refuses an unknown account', () => {
    given().when({ type: 'RotateWebhookSecret', environment: 'production', webhook_secret: 'whsec_new', at }).thenRefuses(notFound('Account not found'));
    given().when({ type: 'IssueSandboxWebhookSecret', webhook_secret: 'whsec_new' }).thenRefuses(notFound('Account not found'));
  });

  it('makes the new secret that environment’s only; a rotation recorded without an environment was production’s', () => {
    const state = account.evolve(account.initialState, withBoth);
    const sandbox = account.evolve(state, {
      type: 'account.webhook_secret_rotated',
      data: { environment: 'sandbox', webhook_secret: 'whsec_new', previous_secret: 'whsec_sandbox_old', previous_valid_until: '2026-11-26T12:00:00.000Z' },
    });
    expect(sandbox).toEqual({ status: 'open', account: { ...opened, sandbox_webhook_secret: 'whsec_new' } });
    const recordedBefore = account.evolve(open, {
      type: 'account.webhook_secret_rotated',
      data: { webhook_secret: 'whsec_new', previous_secret: 'whsec_old', previous_valid_until: '2026-11-26T12:00:00.000Z' },
    });
    expect(recordedBefore).toEqual({ status: 'open', account: { ...opened, webhook_secret: 'whsec_new' } });
  });

  it('an account opened with one shared secret keeps it for production and is issued a sandbox secret of its own, with no overlap', () => {
    given(legacyEvent)
      .when({ type: 'IssueSandboxWebhookSecret', webhook_secret: 'whsec_sandbox' })
      .then([
        {
          type: 'account.webhook_secret_rotated',
          data: { environment: 'sandbox', webhook_secret: 'whsec_sandbox', previous_secret: null, previous_valid_until: null },
        },
      ]);
    const issued = account.evolve(account.evolve(account.initialState, legacyEvent), {
      type: 'account.webhook_secret_rotated',
      data: { environment: 'sandbox', webhook_secret: 'whsec_sandbox', previous_secret: null, previous_valid_until: null },
    });
    expect(issued).toEqual({ status: 'open', account: { ...legacy, webhook_secret: 'whsec_shared', sandbox_webhook_secret: 'whsec_sandbox' } });
    // Issued once: an account that has one (a later start, another replica) records nothing.
    given(withBoth).when({ type: 'IssueSandboxWebhookSecret', webhook_secret: 'whsec_other' }).then([]);
  });

  it('a sandbox rotation of an account without a sandbox secret replaces nothing', () => {
    given(legacyEvent)
      .when({ type: 'RotateWebhookSecret', environment: 'sandbox', webhook_secret: 'whsec_new', at })
      .then([
        {
          type: 'account.webhook_secret_rotated',
          data: { environment: 'sandbox', webhook_secret: 'whsec_new', previous_secret: null, previous_valid_until: null },
        },
      ]);
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
