import { admin, userWithPassword } from './support/global-setup';
import { expect, expectAccessible, screenshot, signIn, test } from './support/console';

// The console's home: today's and the last 30 days' figures and what needs attention, read from the merchant API, on
// an account of its own so that no other test's data changes them.

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
  const charge = await sandbox('/v2/pix', { transaction_id: 'overview-pix', amount: 20, payer: { document_number: '52998224725', name: 'Maria Souza' } });
  await sandbox(`/v2/sandbox/pix/${charge.id}/pay`, {});
  await sandbox('/v2/transactions/refund', { id: charge.id, refund_id: 'overview-refund', amount: 5 });
  const payout = (transactionId: string, amount: number) =>
    sandbox('/v2/payout/pix', { transaction_id: transactionId, amount, name: 'Maria Souza', document_number: '52998224725', pix_key: '52998224725' });
  await payout('overview-paid', 12.34);
  const rejected = await payout('overview-rejected', 5);
  await sandbox(`/v2/sandbox/payouts/${rejected.id}/status`, { status: 3 });

  await signIn(page, system, 'owner', email);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId('today-payouts')).toHaveText(/^1 for R\$\s12,34$/);
  await expect(page.getByTestId('today-cash-in')).toHaveText(/^1 for R\$\s20,00$/);
  await expect(page.getByTestId('today-refunds')).toHaveText(/^1 for R\$\s5,00$/);
  await expect(page.getByTestId('attention')).toContainText('1 payouts made in the last 30 days were rejected by the bank');
  await expect(page.getByTestId('attention')).toContainText('0 webhook deliveries failed');
  await expect(page.getByRole('img', { name: /^Payouts, by day: 1 for R\$\s12,34 in the last 30 days/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Automatic Pix charges paid, by day: 0 for/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Pix charges paid \(cash-in\), by day: 1 for R\$\s20,00 in the last 30 days/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Refunds, by day: 1 for R\$\s5,00 in the last 30 days/ })).toBeVisible();
  await screenshot(page, 'overview');
  await page.getByText('Payouts: figures by day').click();
  await expect(page.getByRole('row', { name: /R\$\s12,34/ })).toHaveCount(1);
  await page.getByText('Refunds: figures by day').click();
  await expect(page.getByRole('row', { name: /R\$\s5,00/ })).toHaveCount(1);
  await expectAccessible(page);
});
