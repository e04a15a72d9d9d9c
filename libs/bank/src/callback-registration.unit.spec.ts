import type { PixBankClient } from './bank-client';
import type { Banks } from './banks';
import { BankCallbackRegistration } from './callback-registration';

const fakeBanks = () => {
  const closed = { value: false };
  const banks = {
    of: ({ environment }: { environment: string }) => ({ environment }) as unknown as PixBankClient,
    close: async () => void (closed.value = true),
  };
  return { banks: banks as unknown as Banks, closed };
};
const quiet = { warn: () => undefined };

describe('BankCallbackRegistration', () => {
  it('tells each environment’s bank its own URL, retrying a bank that does not answer yet', async () => {
    const { banks } = fakeBanks();
    const told: string[] = [];
    let failures = 2;
    const registration = new BankCallbackRegistration(
      banks,
      'http://127.0.0.1:4101',
      async (_bank, url) => {
        if (failures-- > 0) throw new Error('ECONNREFUSED');
        told.push(url);
      },
      quiet,
    );
    registration.onApplicationBootstrap();
    const deadline = Date.now() + 5000;
    while (told.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(told).toEqual(['http://127.0.0.1:4101/bank/production', 'http://127.0.0.1:4101/bank/sandbox']);
    await registration.onApplicationShutdown();
  });

  it('stops retrying at shutdown without waiting out its pause, then closes the banks', async () => {
    const { banks, closed } = fakeBanks();
    const registration = new BankCallbackRegistration(banks, 'http://x', () => Promise.reject(new Error('down')), quiet);
    registration.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await registration.onApplicationShutdown();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(closed.value).toBe(true);
  });
});
