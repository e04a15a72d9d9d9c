import { admin } from './support/global-setup';
import { API_KEY, expect, expectAccessible, screenshot, signIn, test } from './support/console';

// The account's API keys: created in the console and shown once, working at the gateway until revoked there; the
// console's own key listed as such and out of users' reach; the roles as everywhere else.

/** The merchant API as an integration calls it, with a key, over loopback: the status of a read of the test clock. */
const sandboxStatus = async (sandboxUrl: string, key: string): Promise<number> =>
  (await fetch(`${sandboxUrl}/v2/sandbox/clock`, { headers: { authorization: key } })).status;

test('creates a sandbox key shown once, which the gateway takes until it is revoked', async ({ page, context, system }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, system, 'developer');
  await expect(page.getByTestId('today')).toBeVisible(); // the overview has read the sandbox, with the console's key
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  // The console's own sandbox key (issued to show the overview) is listed as the console's, with no Revoke.
  const own = page.getByRole('row', { name: /the console's own/ });
  await expect(own.first()).toBeVisible();
  await expect(own.getByRole('button', { name: /Revoke/ })).toHaveCount(0);

  await page.getByLabel('Name (optional)').fill('Loja backend');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('created-key');
  await expect(shown).toHaveValue(/^pix_test_/);
  const key = await shown.inputValue();
  const keyId = /key_[0-9a-f]+/.exec((await page.locator('label[for="created-key"]').textContent()) ?? '')?.[0] as string;
  await page.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.getByText('Copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expectAccessible(page);
  expect(await sandboxStatus(system.sandboxUrl, key)).toBe(200);

  // Shown once: gone once dismissed, and not in the page when it is opened again.
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('today')).toBeVisible();
  await page.getByRole('link', { name: 'API keys' }).click();
  const row = page.getByRole('row', { name: new RegExp(keyId) });
  await expect(row).toContainText('Active');
  await expect(row.getByTestId('key-name')).toHaveText('Loja backend');
  expect(API_KEY.test(await page.content())).toBe(false);
  await screenshot(page, 'api-keys');

  await row.getByRole('button', { name: `Revoke ${keyId}` }).click();
  await page.getByRole('button', { name: `Yes, revoke ${keyId}` }).click();
  await expect(row).toContainText('Revoked');
  expect(await sandboxStatus(system.sandboxUrl, key)).toBe(401);
  await expectAccessible(page);

  // The console's own key is refused to a user asked directly, and production keys to a developer.
  const answers = await page.evaluate(async () => {
    const session = await (await fetch('/console/v1/session')).json();
    const headers = { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token };
    const listed = (await (await fetch('/console/v1/api-keys')).json()) as { api_keys: Array<{ key_id: string; console: boolean }> };
    const consoleKey = listed.api_keys.find((listedKey) => listedKey.console)?.key_id as string;
    const revokeOwn = await fetch(`/console/v1/api-keys/${consoleKey}`, { method: 'DELETE', headers: { 'x-csrf-token': session.csrf_token } });
    const production = await fetch('/console/v1/api-keys', { method: 'POST', headers, body: JSON.stringify({ environment: 'production' }) });
    return { revokeOwn: [revokeOwn.status, (await revokeOwn.json()).message], production: [production.status, (await production.json()).message] };
  });
  expect(answers).toEqual({
    revokeOwn: [403, "This key is the console's own, which it uses to show you your data: it cannot be revoked here"],
    production: [403, 'A developer may not make changes in production'],
  });
  await page.getByRole('link', { name: 'Production' }).click();
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByTestId('api-keys').or(page.getByTestId('no-keys'))).toBeVisible(); // the list has answered
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
});

test('a viewer reads the keys but can neither create nor revoke one, even asking the server directly', async ({ page, system }) => {
  const issued = await admin<{ key_id: string; api_key: string }>(system.adminUrl, 'POST', `/admin/accounts/${system.accountId}/api-keys`, {
    environment: 'sandbox',
  });
  await signIn(page, system, 'viewer');
  await expect(page.getByTestId('today')).toBeVisible(); // the overview has answered
  await page.getByRole('link', { name: 'API keys' }).click();
  const row = page.getByRole('row', { name: new RegExp(issued.key_id) });
  await expect(row).toContainText('Active');
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
  await expectAccessible(page);

  const answers = await page.evaluate(async (keyId) => {
    const session = await (await fetch('/console/v1/session')).json();
    const headers = { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token };
    const create = await fetch('/console/v1/api-keys', { method: 'POST', headers, body: JSON.stringify({ environment: 'sandbox' }) });
    const revoke = await fetch(`/console/v1/api-keys/${keyId}`, { method: 'DELETE', headers: { 'x-csrf-token': session.csrf_token } });
    return { create: [create.status, (await create.json()).message], revoke: [revoke.status, (await revoke.json()).message] };
  }, issued.key_id);
  expect(answers).toEqual({
    create: [403, 'A viewer may not make changes in sandbox'],
    revoke: [403, 'A viewer may not make changes in sandbox'],
  });
  expect(await sandboxStatus(system.sandboxUrl, issued.api_key)).toBe(200);
});

test('shows when each key was last used, from the request log, and Never for a key never used', async ({ page, system }) => {
  const issue = () =>
    admin<{ key_id: string; api_key: string }>(system.adminUrl, 'POST', `/admin/accounts/${system.accountId}/api-keys`, { environment: 'sandbox' });
  const [used, unused] = [await issue(), await issue()];
  const before = new Date();
  expect(await sandboxStatus(system.sandboxUrl, used.api_key)).toBe(200);
  const after = new Date();
  await signIn(page, system, 'viewer');
  await expect(page.getByTestId('today')).toBeVisible();
  const lastUsed = (keyId: string) => page.getByRole('row', { name: new RegExp(keyId) }).getByTestId('last-used');
  // The request's log line is written within about a second: the page is opened again until it is there.
  await expect(async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('link', { name: 'API keys' }).click();
    await expect(lastUsed(used.key_id)).not.toHaveText('Never', { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  // Shown as Brasília's wall clock to the second (2026-11-27 22:15:03): the moment of the request, between before and after.
  const shown = Date.parse(`${((await lastUsed(used.key_id).textContent()) as string).replace(' ', 'T')}-03:00`);
  expect(shown).toBeGreaterThanOrEqual(Math.floor(before.getTime() / 1000) * 1000);
  expect(shown).toBeLessThanOrEqual(after.getTime());
  await expect(lastUsed(unused.key_id)).toHaveText('Never');
  await expect(page.getByRole('columnheader', { name: 'Last used (Brasília time)' })).toBeVisible();
  await expectAccessible(page);
});
