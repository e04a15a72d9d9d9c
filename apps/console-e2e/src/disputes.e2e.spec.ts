import { admin, userWithPassword } from './support/global-setup';
import { expect, expectAccessible, screenshot, signIn, test } from './support/console';

// Disputes in the console: the payer's bank disputes a paid Pix charge (the sandbox's act), the overview says a
// dispute awaits a defence, the dispute page shows what is held and until when, takes a defence with a file (a file
// that is not what it says is refused), and shows the bank's conclusion once the test clock passes it. An account of
// its own: the test clock moves.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

test('disputes a paid charge, warns on the overview, takes a defence with its evidence and shows the return, accessibly', async ({ page, system }) => {
  const { account_id: accountId } = await admin<{ account_id: string }>(system.adminUrl, 'POST', '/admin/accounts', { name: 'Loja das Disputas' });
  const email = `disputes-${accountId.slice(0, 8)}@loja.example`;
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
  const charge = await sandbox('/v2/pix', { transaction_id: 'disputed-pix', amount: 20, payer: { document_number: '52998224725', name: 'Maria Souza' } });
  await sandbox(`/v2/sandbox/pix/${charge.id}/pay`, {});

  await signIn(page, system, 'owner', email);
  await page.getByRole('link', { name: 'Pix charges' }).click();
  await page.getByRole('link', { name: 'disputed-pix' }).click();
  await page.getByRole('button', { name: 'Dispute this payment' }).click();

  // The dispute: OPEN, the whole payment held, a deadline on the test clock.
  await expect(page.getByRole('heading', { name: /^Dispute \d+$/ })).toBeVisible();
  await expect(page.getByTestId('dispute-status')).toHaveText('Awaiting your defence');
  await expect(page.getByTestId('dispute-held')).toContainText('20,00');
  await expect(page.getByTestId('dispute-deadline')).not.toHaveText('—');
  await expectAccessible(page);
  const disputeUrl = page.url();

  // The overview says it awaits a defence.
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('attention-disputes')).toContainText('1 disputes await your defence');
  await page.goto(disputeUrl);

  // A file that is not what it says is refused, with the API's words; then the defence with a real PDF.
  await page.getByLabel('What happened').fill('The customer received the goods; the signed delivery note is attached.');
  await page.getByLabel('Evidence files').setInputFiles({ name: 'nota.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
  await page.getByRole('button', { name: 'Send defence' }).click();
  await expect(page.getByText('is not a application/pdf file: its content does not match its content_type')).toBeVisible();
  await expect(page.getByTestId('dispute-status')).toHaveText('Awaiting your defence');
  await page.getByLabel('Evidence files').setInputFiles({ name: 'nota.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Send defence' }).click();
  await expect(page.getByTestId('dispute-status')).toHaveText('Defended');
  await expect(page.getByTestId('defence-text')).toHaveText('The customer received the goods; the signed delivery note is attached.');
  await expect(page.getByText(`nota.pdf (application/pdf, ${PDF.length} bytes)`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send defence' })).toHaveCount(0);
  await screenshot(page, 'dispute');
  await expectAccessible(page);

  // The list shows it defended; eight days on the test clock and the bank returned the money.
  await page.getByRole('link', { name: 'Disputes', exact: true }).click();
  await expect(page.getByTestId('disputes').getByRole('row', { name: /disputed-pix/ })).toContainText('Defended');
  await expectAccessible(page);
  await sandbox('/v2/sandbox/clock/advance', { days: 8 });
  await page.goto(disputeUrl);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('dispute-status')).toHaveText('Returned to the payer', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId('dispute-return')).toContainText('MED_FRAUDE');
  await page.getByRole('link', { name: 'disputed-pix' }).click();
  await expect(page.getByTestId('pix-dispute')).toContainText(/Returned to the payer, R\$\s20,00 returned to the payer/);
});
