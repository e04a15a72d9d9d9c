import { randomUUID } from 'node:crypto';
import { admin } from './support/global-setup';
import { expect, expectAccessible, screenshot, signIn, test } from './support/console';

// The request log: what an integration sent with the account's keys, found by the request id its answer carried, a
// failed one with what it sent and was answered (redacted); the console's own requests left out.

test('finds an integration request by its id, a failed one with its redacted bodies, and leaves out the console', async ({ page, system }) => {
  const { api_key: key, key_id: keyId } = await admin<{ api_key: string; key_id: string }>(
    system.adminUrl,
    'POST',
    `/admin/accounts/${system.accountId}/api-keys`,
    {
      environment: 'sandbox',
    },
  );
  const requestId = `console-e2e-${randomUUID()}`;
  const failed = await fetch(`${system.sandboxUrl}/v2/limits`, {
    method: 'POST',
    headers: { authorization: key, 'content-type': 'application/json', 'x-request-id': requestId, 'idempotency-key': `idem-${requestId}` },
    body: JSON.stringify({ document_number: '52998224725', type: 'cashin', mechanism: 'amount', amount: -5 }),
  });
  expect(failed.status).toBe(400);
  expect((await fetch(`${system.sandboxUrl}/v2/sandbox/clock`, { headers: { authorization: key } })).status).toBe(200);

  await signIn(page, system, 'viewer'); // reading the log is every role's
  await page.getByRole('link', { name: 'Requests' }).click();
  await expect(page.getByRole('heading', { name: 'Requests' })).toBeVisible();
  await page.getByLabel('Request id').fill(requestId);
  // Written in batches a moment after the answer: searched again until it is there.
  await expect(async () => {
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByTestId('requests').getByRole('row')).toHaveCount(2, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  const row = page.getByRole('row', { name: new RegExp(requestId) });
  await expect(row).toContainText('POST /v2/limits');
  await expect(row).toContainText('400');
  await expect(row).toContainText(`idem-${requestId}`);
  await expect(row).toContainText(keyId);
  await row.getByRole('button', { name: requestId }).click();
  const bodies = page.getByTestId('request-bodies');
  await expect(bodies).toContainText('"document_number": "[redacted]"');
  await expect(bodies).toContainText('"amount": -5');
  await expect(bodies).toContainText('ValidationError');
  await expect(bodies).not.toContainText('52998224725');
  await expectAccessible(page);
  await screenshot(page, 'requests');

  // The console read the test clock with its own key too: only the integration's reads are listed.
  const own = (await (await page.request.get(`${system.consoleUrl}/console/v1/api-keys`)).json()) as { api_keys: { key_id: string; console: boolean }[] };
  const consoleKeys = own.api_keys.filter((listed) => listed.console).map((listed) => listed.key_id);
  expect(consoleKeys.length).toBeGreaterThan(0);
  await page.getByLabel('Request id').fill('');
  await page.getByLabel('Path starts with').fill('/v2/sandbox/clock');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('row', { name: new RegExp(keyId) }).first()).toBeVisible();
  const listedKeys = await page.getByTestId('requests').locator('tbody tr td:nth-child(7)').allTextContents();
  expect(listedKeys.filter((listed) => consoleKeys.includes(listed))).toEqual([]);
});
