import { expect, expectAccessible, screenshot, signIn, test } from './support/console';

test('creates a Pix charge, pays it as the payer, refunds part of it and downloads the refund receipt', async ({ page, system }) => {
  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Pix charges' }).click();
  await expectAccessible(page);

  const transactionId = `pedido-${Date.now().toString(36)}`;
  await page.getByLabel('Your identifier (transaction_id)').fill(transactionId);
  await page.getByLabel('Amount (R$)').fill('99.90');
  await page.getByLabel("Payer's CPF or CNPJ").fill('52998224725');
  await page.getByLabel("Payer's name").fill('Maria Silva');
  await page.getByRole('button', { name: 'Create Pix charge' }).click();

  await expect(page.getByRole('heading', { name: `Pix charge ${transactionId}` })).toBeVisible();
  await expect(page.getByTestId('pix-status')).toHaveText('Awaiting payment');
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByTestId('pix-status')).toHaveText('Paid');

  await page.getByLabel('Your identifier of the refund').fill(`dev-${transactionId}`.slice(0, 35));
  await page.getByLabel(/Amount to refund/).fill('30');
  await page.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByTestId('refunds')).toContainText('In progress');
  await page.getByRole('button', { name: 'Settle now' }).click();
  await expect(page.getByTestId('refunds')).toContainText('Refunded');
  await screenshot(page, 'pix-charge');
  await expectAccessible(page);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download receipt' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test('lists the Pix charges of a period: a charge just created shows at once, and the status filter keeps or leaves it out', async ({ page, system }) => {
  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Pix charges' }).click();
  const transactionId = `lista-${Date.now().toString(36)}`;
  await page.getByLabel('Your identifier (transaction_id)').fill(transactionId);
  await page.getByLabel('Amount (R$)').fill('12,34');
  await page.getByLabel("Payer's CPF or CNPJ").fill('52998224725');
  await page.getByLabel("Payer's name").fill('Maria Silva');
  await page.getByRole('button', { name: 'Create Pix charge' }).click();
  await expect(page.getByRole('heading', { name: `Pix charge ${transactionId}` })).toBeVisible();

  await page.getByRole('link', { name: 'Pix charges' }).click();
  const row = page.getByRole('row', { name: new RegExp(transactionId) });
  await expect(row).toContainText('Awaiting payment');
  await expect(row).toContainText('12,34');
  await expect(page.getByTestId('pix-charges').getByRole('row').nth(1)).toContainText(transactionId); // newest first
  await expectAccessible(page);

  const filterBy = async (status: string) => {
    await page.getByLabel('Status').selectOption(status);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByTestId('pix-charges-found')).toContainText(`(${status.toLowerCase()})`);
  };
  await filterBy('Paid');
  await expect(row).toHaveCount(0);
  await filterBy('Awaiting payment');
  await expect(row).toHaveCount(1);

  await row.getByRole('link', { name: transactionId }).click();
  await expect(page.getByRole('heading', { name: `Pix charge ${transactionId}` })).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByTestId('pix-status')).toHaveText('Paid');

  await page.getByRole('link', { name: 'Pix charges' }).click();
  await expect(row).toContainText('Paid');
  await filterBy('Awaiting payment');
  await expect(row).toHaveCount(0);
  await filterBy('Paid');
  await expect(row).toHaveCount(1);
  await screenshot(page, 'pix-charges');
  await expectAccessible(page);
});

test("a Pix charge's refunds stay on its page: listed after a reload with the refunded total, and the receipt downloads again", async ({ page, system }) => {
  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Pix charges' }).click();
  const transactionId = `reembolso-${Date.now().toString(36)}`;
  await page.getByLabel('Your identifier (transaction_id)').fill(transactionId);
  await page.getByLabel('Amount (R$)').fill('50');
  await page.getByLabel("Payer's CPF or CNPJ").fill('52998224725');
  await page.getByLabel("Payer's name").fill('Maria Silva');
  await page.getByLabel('Webhook URL (optional)').fill('http://127.0.0.1:9/pix-webhooks');
  await page.getByRole('button', { name: 'Create Pix charge' }).click();
  await expect(page.getByRole('heading', { name: `Pix charge ${transactionId}` })).toBeVisible();
  // The charge sends its events to the URL given.
  await expect(page.getByTestId('pix-webhook')).toHaveText('http://127.0.0.1:9/pix-webhooks');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByTestId('pix-status')).toHaveText('Paid');

  const refundId = `r-${transactionId}`.slice(0, 35);
  await page.getByLabel('Your identifier of the refund').fill(refundId);
  await page.getByLabel(/Amount to refund/).fill('20');
  await page.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByTestId('refunds')).toContainText('In progress');
  await page.getByRole('button', { name: 'Settle now' }).click();
  await expect(page.getByTestId('refunds')).toContainText('Refunded');

  await page.reload();
  await expect(page.getByTestId('refunds')).toContainText(refundId);
  await expect(page.getByTestId('refunds')).toContainText('Refunded');
  await expect(page.getByTestId('refunded-total')).toHaveText(/Refunded: R\$\s20,00 of R\$\s50,00/);
  await expectAccessible(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download receipt' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
});
