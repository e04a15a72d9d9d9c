import { AccountOpenedData } from '@pixauto/contracts';
import { account, AccountState, rateLimitsOf } from './account';

const opened: AccountOpenedData = {
  account_id: '7f0c1a2b-0000-4000-8000-000000000001',
  name: 'Loja',
  wallet: true,
  cashin_provider: 'PROVIDER_A',
  providers: [],
  webhook_secret: 'whsec_old',
};
const open: AccountState = { status: 'open', account: opened };
const at = new Date('2026-11-25T12:00:00.000Z');

describe('account: webhook secret rotation', () => {
  it('records the new secret, the replaced one and when it stops signing (24 hours later)', () => {
    expect(account.decide({ type: 'RotateWebhookSecret', webhook_secret: 'whsec_new', at }, open)).toEqual({
      ok: true,
      events: [
        {
          type: 'account.webhook_secret_rotated',
          data: { webhook_secret: 'whsec_new', previous_secret: 'whsec_old', previous_valid_until: '2026-11-26T12:00:00.000Z' },
        },
      ],
    });
  });

  it('refuses an unknown account', () => {
    expect(account.decide({ type: 'RotateWebhookSecret', webhook_secret: 'whsec_new', at }, { status: 'none' })).toEqual({ ok: false, refusal: { kind: 'not_found', message: 'Account not found' } });
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
  const change = (rate_limit: { production?: number; sandbox?: number }, state: AccountState = open) => account.decide({ type: 'ChangeAccount', data: { rate_limit } }, state);

  it('records both environments as they are after the change; the one not named keeps its limit', () => {
    expect(change({ sandbox: 25 })).toEqual({ ok: true, events: [{ type: 'account.changed', data: { rate_limit: { production: 5000, sandbox: 25 } } }] });
    const limited: AccountState = { status: 'open', account: { ...opened, rate_limit: { production: 100, sandbox: 25 } } };
    expect(change({ production: 200 }, limited)).toEqual({ ok: true, events: [{ type: 'account.changed', data: { rate_limit: { production: 200, sandbox: 25 } } }] });
  });

  it('records nothing when the limits stay as they are (an account opened before them has the defaults)', () => {
    expect(change({ production: 5000 })).toEqual({ ok: true, events: [] });
    expect(rateLimitsOf(opened)).toEqual({ production: 5000, sandbox: 5000 });
  });

  it('folds a change into the account', () => {
    const changed = account.evolve(open, { type: 'account.changed', data: { rate_limit: { production: 100, sandbox: 25 } } });
    expect(changed.status === 'open' && rateLimitsOf(changed.account)).toEqual({ production: 100, sandbox: 25 });
  });
});
