import { admin, userWithPassword } from './support/global-setup';
import { expect, expectAccessible, screenshot, signIn, test } from './support/console';

// The console's home: today's and the last 30 days' figures and what needs attention, read from the merchant API's
// daily totals in one request, on an account of its own so that no other test's data changes them.

test('shows today, the last 30 days as charts (cash-in and refunds among them), and what needs attention, accessibly', async ({ page, system }) => {
  const { account_id: accountId } = await admin<{ account_id: string }>(system.adminUrl, 'POST', '/admin/accounts', { name: 'Loja da Visão Geral' });
  const email = `overview-${accountId.slice(0, 8)}@loja.example`;
  await userWithPassword(system.adminUrl, accountId, email, 'owner');
  const { api_key: key } = await admin<{ api_key: string }>(system.adminUrl, 'POST', `/admin/accounts/${accountId}/api-keys`, { environment: 'sandbox' });
  const sandbox = async (path: string, body: unknown) => {
    const response = await fetch(`${system.sandboxUrl}${path}`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as { id: number };
  };
  const dayAfterClock = async (days: number): Promise<string> => {
    const response = await fetch(`${system.sandboxUrl}/v2/sandbox/clock`, { headers: { authorization: key } });
    const { today } = (await response.json()) as { today: string };
    return new Date(Date.parse(`${today}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  };
  const charge = await sandbox('/v2/pix', { transaction_id: 'overview-pix', amount: 20, payer: { document_number: '52998224725', name: 'Maria Souza' } });
  await sandbox(`/v2/sandbox/pix/${charge.id}/pay`, {});
  await sandbox('/v2/transactions/refund', { id: charge.id, refund_id: 'overview-refund', amount: 5 });
  const payout = (transactionId: string, amount: number) =>
    sandbox('/v2/payout/pix', { transaction_id: transactionId, amount, name: 'Maria Souza', document_number: '52998224725', pix_key: '52998224725' });
  await payout('overview-paid', 12.34);
  const rejected = await payout('overview-rejected', 5);
  await sandbox(`/v2/sandbox/payouts/${rejected.id}/status`, { status: 3 });

  // Three recurrences, one of them approved and charged: the overview reads every charge in one request all the same.
  const run = accountId.slice(0, 8);
  const recurrences: Array<{ recurrence_id: string }> = [];
  for (const n of [1, 2, 3])
    recurrences.push(
      (await sandbox('/v2/automatic-pix/recurrences', {
        transaction_id: `visao-${run}-${n}`,
        debtor: { document_number: '52998224725', name: 'Maria Souza' },
        schedule: { start_date: await dayAfterClock(2), periodicity: 'MONTHLY' },
        amount: 7,
        retry_policy: 'NOT_ALLOWED',
      })) as unknown as { recurrence_id: string },
    );

  // The first authorized, its first charge paid today by the payer's bank.
  await sandbox(`/v2/sandbox/recurrences/${recurrences[0].recurrence_id}/authorize`, {});
  const scheduledCharge = async (): Promise<string | undefined> => {
    const url = `${system.sandboxUrl}/v2/automatic-pix/recurrences/${recurrences[0].recurrence_id}/charges`;
    const { charges } = (await (await fetch(url, { headers: { authorization: key } })).json()) as { charges: Array<{ charge_id: string; status: string }> };
    return charges.find((charge) => charge.status === 'SCHEDULED')?.charge_id;
  };
  await expect.poll(scheduledCharge, { timeout: 20_000 }).toBeDefined();
  await sandbox(`/v2/sandbox/charges/${(await scheduledCharge()) as string}/pay`, {});

  const overviewRequests: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/console/v1/')) overviewRequests.push(`${request.method()} ${pathname}`);
  });
  await signIn(page, system, 'owner', email);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  // The account's name, in the header.
  await expect(page.getByTestId('account-name')).toHaveText('Loja da Visão Geral');
  await expect(page.getByTestId('today-payouts')).toHaveText(/^1 for R\$\s12,34$/);
  await expect(page.getByTestId('today-cash-in')).toHaveText(/^1 for R\$\s20,00$/);
  await expect(page.getByTestId('today-refunds')).toHaveText(/^1 for R\$\s5,00$/);
  await expect(page.getByTestId('attention')).toContainText('1 payouts made in the last 30 days were rejected by the bank');
  await expect(page.getByTestId('attention')).toContainText('0 webhook deliveries failed');
  await expect(page.getByRole('img', { name: /^Payouts, by day: 1 for R\$\s12,34 in the last 30 days/ })).toBeVisible();
  await expect(page.getByTestId('today-charges')).toHaveText(/^1 for R\$\s7,00$/);
  await expect(page.getByRole('img', { name: /^Automatic Pix charges paid, by day: 1 for R\$\s7,00 in the last 30 days/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Pix charges paid \(cash-in\), by day: 1 for R\$\s20,00 in the last 30 days/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Refunds, by day: 1 for R\$\s5,00 in the last 30 days/ })).toBeVisible();
  await screenshot(page, 'overview');
  // The figures in one request, whatever the number of recurrences, payouts or charges: the daily totals, and no list.
  expect(overviewRequests.filter((request) => request.endsWith('/api/v2/reports/daily-totals'))).toEqual([
    'GET /console/v1/sandbox/api/v2/reports/daily-totals',
  ]);
  const lists = /\/api\/v2\/(withdrawals\/period|pix\/charges|transactions\/refunds|automatic-pix\/charges|recurrences\/[^/]+\/charges)$/;
  expect(overviewRequests.filter((request) => lists.test(request))).toEqual([]);
  expect(recurrences).toHaveLength(3);
  await page.getByText('Payouts: figures by day').click();
  await expect(page.getByRole('row', { name: /R\$\s12,34/ })).toHaveCount(1);
  await page.getByText('Refunds: figures by day').click();
  await expect(page.getByRole('row', { name: /R\$\s5,00/ })).toHaveCount(1);
  await expectAccessible(page);
});

test('a new account sees its first steps, each a link, ticked as it takes them, instead of empty charts', async ({ page, system }) => {
  const { account_id: accountId } = await admin<{ account_id: string }>(system.adminUrl, 'POST', '/admin/accounts', { name: 'Loja Nova' });
  const email = `first-steps-${accountId.slice(0, 8)}@loja.example`;
  await userWithPassword(system.adminUrl, accountId, email, 'owner');
  await signIn(page, system, 'owner', email);
  const steps = page.getByTestId('first-steps');
  await expect(steps).toBeVisible();
  for (const [step, name, place] of [
    ['key', 'Create a sandbox API key', '#/sandbox/api-keys'],
    ['recurrence', 'Create a first sandbox recurrence', '#/sandbox/new-recurrence'],
    ['webhook', 'Add a webhook endpoint', '#/sandbox/webhook-endpoints'],
  ]) {
    await expect(page.getByTestId(`step-${step}`)).toContainText('Not yet.');
    await expect(steps.getByRole('link', { name })).toHaveAttribute('href', place);
  }
  // Nothing moved yet: a sentence, not four empty charts.
  await expect(page.getByTestId('no-volume')).toBeVisible();
  await expect(page.getByRole('img', { name: /by day/ })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, 'first-steps');

  // A key and a recurrence: two steps done; a Pix charge with a webhook URL, sent its first event: all done, the list gone.
  const { api_key: key } = await admin<{ api_key: string }>(system.adminUrl, 'POST', `/admin/accounts/${accountId}/api-keys`, { environment: 'sandbox' });
  const clock = (await (await fetch(`${system.sandboxUrl}/v2/sandbox/clock`, { headers: { authorization: key } })).json()) as { today: string };
  const response = await fetch(`${system.sandboxUrl}/v2/automatic-pix/recurrences`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify({
      transaction_id: `primeira-${accountId.slice(0, 8)}`,
      debtor: { document_number: '52998224725', name: 'Maria Souza' },
      schedule: { start_date: new Date(Date.parse(`${clock.today}T12:00:00Z`) + 5 * 86_400_000).toISOString().slice(0, 10), periodicity: 'MONTHLY' },
      amount: 10,
      retry_policy: 'NOT_ALLOWED',
    }),
  });
  expect(response.status).toBe(201);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('step-key')).toContainText('Done.', { timeout: 2000 });
    await expect(page.getByTestId('step-recurrence')).toContainText('Done.', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId('step-webhook')).toContainText('Not yet.');
  const pix = await fetch(`${system.sandboxUrl}/v2/pix`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json' },
    body: JSON.stringify({
      transaction_id: `primeira-${accountId.slice(0, 8)}`,
      amount: 10,
      payer: { document_number: '52998224725', name: 'Maria Souza' },
      webhook: 'http://127.0.0.1:9/first-steps',
    }),
  });
  expect(pix.status).toBe(201);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Today' })).toBeVisible({ timeout: 2000 });
    await expect(page.getByTestId('first-steps')).toHaveCount(0, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
});
