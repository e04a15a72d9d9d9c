import { AccountOpenedData } from '@pixauto/contracts';
import { account, AccountState } from './account';

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
