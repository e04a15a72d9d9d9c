import { simulatorConfig } from './config';

describe('simulatorConfig', () => {
  it('settles payouts 1500 ms after they are asked for, unless SIMULATOR_PAYOUT_SETTLE_MS says otherwise', () => {
    expect(simulatorConfig({}).payoutSettleMs).toBe(1500);
    expect(simulatorConfig({ SIMULATOR_PAYOUT_SETTLE_MS: '0' }).payoutSettleMs).toBe(0);
    expect(simulatorConfig({ SIMULATOR_PAYOUT_SETTLE_MS: '60000' }).payoutSettleMs).toBe(60_000);
  });

  it.each(['-1', '1.5', 'soon'])('refuses SIMULATOR_PAYOUT_SETTLE_MS=%p', (value) => {
    expect(() => simulatorConfig({ SIMULATOR_PAYOUT_SETTLE_MS: value })).toThrow(RangeError);
  });
});
