import type { Download, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { alphanumericCnpj } from '@pixauto/testing';
import { dayAfter, expect, expectAccessible, screenshot, signIn, test } from './support/console';

// Cash-out in the console: payouts (the sandbox's bank played by hand, the lookups, the CSV, the receipts) and the
// customer limits. The suite's bank never pays a payout by itself (global-setup), so each move here is the test's.

/** A beneficiary no other console test pays, and a customer no other test limits (valid CPFs). */
const BENEFICIARY = '39053344705';
const LIMITED = '11144477735';
/** A company registered since July 2026: an alphanumeric CNPJ of this run's own (valid check digits). */
const COMPANY = alphanumericCnpj(`CO${Date.now().toString(36).toUpperCase().padStart(10, '0').slice(-10)}`);

const CSV_HEADER =
  'id,transaction_id,name,document_number,document_type,currency,amount,status,bank_type,bank_name,bank_code,account_agency,account_number,webhook,created_at,paid_at,e2e,psp_id,provider';

/** What the browser saved when the button was clicked. */
async function downloaded(page: Page, button: string): Promise<{ file: Download; content: Buffer }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button, exact: true }).click();
  const file = await download;
  const chunks: Buffer[] = [];
  for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
  return { file, content: Buffer.concat(chunks) };
}

async function expectPdf(page: Page, button: string): Promise<void> {
  const { file, content } = await downloaded(page, button);
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  expect(content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

test('pays out, moves the payout to paid as the bank, finds it by period and customer, and downloads the CSV and the receipts', async ({ page, system }) => {
  await signIn(page, system, 'developer');
  await expect(page.getByTestId('clock-today')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
  const today = (await page.getByTestId('clock-today').textContent()) as string;
  await page.getByRole('link', { name: 'Payouts' }).click();
  await expectAccessible(page);

  const transactionId = `saque-${Date.now().toString(36)}`;
  await page.getByLabel('Your identifier (transaction_id)').fill(transactionId);
  await page.getByLabel('Amount (R$)').fill('42.50');
  await page.getByLabel("Beneficiary's name").fill('Maria Silva');
  await page.getByLabel("Beneficiary's CPF or CNPJ").fill(BENEFICIARY);
  await page.getByLabel('Pix key').fill('maria@example.com');
  await page.getByRole('button', { name: 'Create payout' }).click();

  await expect(page.getByRole('heading', { name: `Payout ${transactionId}` })).toBeVisible();
  await expect(page.getByTestId('payout-status')).toHaveText(/^(Created|Processing)$/);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Paid', exact: true }).click();
  await expect(page.getByTestId('payout-status')).toHaveText('Completed');
  await expect(page.getByRole('button', { name: 'Paid', exact: true })).toHaveCount(0);
  await expectPdf(page, 'Download receipt');

  const returnId = `DEV${Date.now().toString(36).toUpperCase()}`;
  await page.getByLabel('Identifier of the return (optional)').fill(returnId);
  await page.getByLabel(/Amount to send back/).fill('10');
  await page.getByRole('button', { name: 'Send back' }).click();
  await expect(page.getByText(returnId)).toBeVisible();
  await expect(page.getByTestId('payout-status')).toHaveText('Completed');
  await screenshot(page, 'payout');
  await expectAccessible(page);
  await expectPdf(page, 'Download return receipt');
  const payoutId = page.url().split('/').pop() as string;

  // The payouts of the sandbox's days around its today (the payout is dated by the test clock), completed ones only.
  await page.getByRole('link', { name: 'Payouts' }).click();
  await page.getByLabel('Created from').fill(dayAfter(today, -1));
  await page.getByLabel('to', { exact: true }).fill(dayAfter(today, 1));
  await page.getByLabel('Status').selectOption('Completed');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('link', { name: transactionId })).toBeVisible();
  await screenshot(page, 'payouts');
  await expectAccessible(page);

  const csv = (await downloaded(page, 'Download CSV')).content.toString('utf8');
  expect(csv.split('\n')[0]).toBe(CSV_HEADER);
  const rows: Record<string, string>[] = parse(csv, { columns: true });
  expect(rows.filter((row) => row.transaction_id === transactionId)).toEqual([
    expect.objectContaining({
      id: payoutId,
      document_number: BENEFICIARY,
      document_type: 'CPF',
      currency: 'BRL',
      amount: '42.50',
      status: '1',
      bank_type: 'PIX',
    }),
  ]);

  await page.getByLabel("Customer's CPF or CNPJ").fill(BENEFICIARY);
  await page.getByRole('button', { name: 'Show their payouts' }).click();
  await expect(page.getByTestId('payouts-found')).toHaveText(/^\d+ payouts? to this customer$/);
  await expect(page.getByRole('link', { name: transactionId })).toBeVisible();

  await page.getByLabel('Find by id or your transaction_id').fill(transactionId);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByRole('heading', { name: `Payout ${transactionId}` })).toBeVisible();
  await expect(page.getByTestId('payout-status')).toHaveText('Completed');
});

test('sets a customer limit by quantity and by amount, reads them back, and shows the refusals beside the fields', async ({ page, system }) => {
  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Customer limits' }).click();
  await expectAccessible(page);

  const set = page.getByRole('form', { name: 'Set a limit' });
  await set.getByLabel('Limit by').selectOption('quantity');
  await set.getByRole('button', { name: 'Set limit' }).click();
  await expect(set.locator('.field', { hasText: "Customer's CPF" }).getByRole('alert')).toContainText("Customer's CPF or CNPJ ");
  await expect(set.locator('.field', { hasText: 'Transactions per day' }).getByRole('alert')).toHaveText('Transactions per day must be a positive integer');
  await expectAccessible(page);

  await set.getByLabel("Customer's CPF").fill(LIMITED);
  await set.getByLabel('Limit on').selectOption('cashout');
  await set.getByLabel('Transactions per day').fill('3');
  await set.getByLabel('Note (optional)').fill('Three payouts a day');
  await set.getByRole('button', { name: 'Set limit' }).click();
  await expect(page.getByTestId('limit')).toContainText('At most 3 transactions a day');
  await expect(page.getByRole('alert')).toHaveCount(0);

  await set.getByLabel('Limit by').selectOption('amount');
  await set.getByLabel('Limit on').selectOption('cashin');
  await set.getByLabel('Highest amount (R$)').fill('150.50');
  await set.getByLabel('Note (optional)').fill('New customer');
  await set.getByRole('button', { name: 'Set limit' }).click();
  await expect(page.getByTestId('limit')).toContainText(/At most R\$\s150,50 per transaction/);

  // Read back as stored, from a fresh page.
  await page.reload();
  const lookup = page.getByRole('form', { name: 'Look up a limit' });
  await lookup.getByLabel('CPF or CNPJ to look up').fill(LIMITED);
  await lookup.getByLabel('Its limit on').selectOption('cashout');
  await lookup.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByTestId('limit')).toContainText('At most 3 transactions a day');
  await expect(page.getByTestId('limit')).toContainText('Three payouts a day');
  await lookup.getByLabel('Its limit on').selectOption('cashin');
  await lookup.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByTestId('limit')).toContainText(/At most R\$\s150,50 per transaction/);
  await expect(page.getByTestId('limit')).toContainText('New customer');
  await screenshot(page, 'limits');
  await expectAccessible(page);

  await lookup.getByLabel('CPF or CNPJ to look up').fill(BENEFICIARY);
  await lookup.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByRole('alert')).toHaveText('No limit found for this customer');
  await expect(page.getByTestId('limit')).toHaveCount(0);
});

test('a viewer finds payouts and reads limits, with no button to pay out or set a limit', async ({ page, system }) => {
  await signIn(page, system, 'viewer');
  await page.getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByRole('heading', { name: 'Payouts', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Filter' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create payout' })).toHaveCount(0);
  await expect(page.getByLabel('Pix key')).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Customer limits' }).click();
  await expect(page.getByRole('button', { name: 'Look up' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set limit' })).toHaveCount(0);
  await expectAccessible(page);
});

test('a company with an alphanumeric CNPJ: a cash-out limit set on it holds its payout back, and the payout made within it is found by the CNPJ', async ({
  page,
  system,
}) => {
  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Customer limits' }).click();
  const set = page.getByRole('form', { name: 'Set a limit' });
  await set.getByLabel("Customer's CPF or CNPJ").fill(COMPANY);
  await set.getByLabel('Limit on').selectOption('cashout');
  await set.getByLabel('Limit by').selectOption('amount');
  await set.getByLabel('Highest amount (R$)').fill('100');
  await set.getByRole('button', { name: 'Set limit' }).click();
  await expect(page.getByTestId('limit')).toContainText(COMPANY);

  await page.getByRole('link', { name: 'Payouts' }).click();
  const pay = async (amount: string) => {
    await page.getByLabel('Your identifier (transaction_id)').fill(`cnpj-${Date.now().toString(36)}`);
    await page.getByLabel('Amount (R$)').fill(amount);
    await page.getByLabel("Beneficiary's name").fill('Empresa Nova Ltda');
    await page.getByLabel("Beneficiary's CPF or CNPJ").fill(COMPANY);
    await page.getByLabel('Pix key').fill('financeiro@empresa.example');
    await page.getByRole('button', { name: 'Create payout' }).click();
  };
  await pay('100.01');
  await expect(page.getByRole('alert').first()).toContainText(`cashout limit exceeded for customer ${COMPANY}`);
  await pay('100');
  await expect(page.getByRole('heading', { name: /^Payout cnpj-/ })).toBeVisible();
  await expect(page.getByText(`Empresa Nova Ltda (CNPJ ${COMPANY})`)).toBeVisible();

  await page.getByRole('link', { name: 'Payouts' }).click();
  await page.getByLabel("Customer's CPF or CNPJ").fill(COMPANY);
  await page.getByRole('button', { name: 'Show their payouts' }).click();
  await expect(page.getByTestId('payouts-found')).toHaveText('1 payout to this customer');
  await expectAccessible(page);
});

test("the payouts list opens on the sandbox's today, after the test clock moved, and a late evening's payout is on that Brasília day", async ({
  page,
  system,
}) => {
  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByTestId('clock-today')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
  const clock = (await (await page.request.get(`${system.consoleUrl}/console/v1/sandbox/api/v2/sandbox/clock`)).json()) as { now: string };
  // 45 days on, and to the next 22:xx in Brasília (01:xx UTC): the hours when a Brasília day's UTC date is the next one.
  const hours = (25 - new Date(clock.now).getUTCHours()) % 24;
  const today = new Date(Date.parse(clock.now) + (45 * 24 + hours - 3) * 3_600_000).toISOString().slice(0, 10);
  await page.getByLabel('Advance by days').fill('45');
  await page.getByLabel('and hours').fill(String(hours));
  await page.getByRole('button', { name: 'Advance' }).click();
  await expect(page.getByTestId('clock-today')).toHaveText(today);
  // The clock's time, in Brasília's, said to be the test clock's.
  await expect(page.getByTestId('clock-time')).toHaveText(/^22:\d{2}:\d{2}$/);
  await expect(page.getByRole('region', { name: 'Test clock' })).toContainText('(Brasília time, test clock)');
  // The list follows the clock on the page it moved on.
  await expect(page.getByTestId('payouts-found')).toContainText(`created from ${today} to ${today}`);

  const transactionId = `relogio-${Date.now().toString(36)}`;
  await page.getByLabel('Your identifier (transaction_id)').fill(transactionId);
  await page.getByLabel('Amount (R$)').fill('5');
  await page.getByLabel("Beneficiary's name").fill('Maria Silva');
  await page.getByLabel("Beneficiary's CPF or CNPJ").fill(BENEFICIARY);
  await page.getByLabel('Pix key').fill('maria@example.com');
  await page.getByRole('button', { name: 'Create payout' }).click();
  await expect(page.getByRole('heading', { name: `Payout ${transactionId}` })).toBeVisible();
  // Every instant in one format, Brasília's wall clock, on the test clock: the evening's, not the next UTC date's.
  const brasiliaEvening = new RegExp(`^${today} 22:\\d{2}:\\d{2}$`);
  await expect(page.locator('dt:text-is("Created (Brasília time, test clock)") + dd')).toHaveText(brasiliaEvening);

  await page.getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByTestId('payouts-found')).toContainText(`created from ${today} to ${today}`);
  await expect(page.getByLabel('Created from')).toHaveValue(today);
  await expect(page.getByRole('link', { name: transactionId })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Created (Brasília time, test clock)' })).toBeVisible();
  await expect(
    page
      .getByRole('row', { name: new RegExp(transactionId) })
      .getByRole('cell')
      .nth(3),
  ).toHaveText(brasiliaEvening);
  await expectAccessible(page);
});
