import type { Page } from '@playwright/test';
import { admin, userWithPassword } from './support/global-setup';
import { expect, expectAccessible, screenshot, signIn, test } from './support/console';

// The audit log: an owner sees who changed the account's keys, signing secret, customer limits, test clock and team,
// and when, newest first; nobody else has the page, and the server refuses them. On an account of its own, so that
// its log holds this test's changes only.

/** A moment as the console shows every one: Brasília's wall clock, to the second (2026-11-27 22:15:03). */
const brasilia = (iso: string): string => new Date(Date.parse(iso) - 3 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

async function newAccount(adminUrl: string): Promise<{ accountId: string; owner: string; developer: string; viewer: string }> {
  const { account_id: accountId } = await admin<{ account_id: string }>(adminUrl, 'POST', '/admin/accounts', { name: 'Loja Auditada' });
  const run = accountId.slice(0, 8);
  const users = { owner: `owner-${run}@audit.example`, developer: `dev-${run}@audit.example`, viewer: `viewer-${run}@audit.example` };
  for (const [role, email] of Object.entries(users)) await userWithPassword(adminUrl, accountId, email, role);
  return { accountId, ...users };
}

/** The log's rows as the page shows them, newest first. */
const rowsOf = (page: Page) =>
  page.getByTestId('audit-log').evaluate((table) =>
    Array.from(table.querySelectorAll('tbody tr')).map((row) => {
      const cells = Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent ?? '');
      return {
        at: row.querySelector('time')?.getAttribute('datetime') ?? '',
        when: cells[0],
        who: cells[1],
        what: cells[2],
        which: cells[3],
        environment: cells[4],
      };
    }),
  );

test('an owner sees who changed keys, the signing secret, a limit, the clock and the team, and when, newest first', async ({ page, system }) => {
  test.setTimeout(120_000);
  const { accountId, owner } = await newAccount(system.adminUrl);
  const integration = await admin<{ key_id: string; api_key: string }>(system.adminUrl, 'POST', `/admin/accounts/${accountId}/api-keys`, {
    environment: 'sandbox',
  });
  const started = new Date().toISOString();
  await signIn(page, system, 'owner', owner);
  await expect(page.getByTestId('today')).toBeVisible(); // the console has issued its own sandbox key

  // A key created and revoked.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Name (optional)').fill('Caixa');
  await page.getByRole('button', { name: 'Create key' }).click();
  const keyId = /key_[0-9a-f]+/.exec((await page.locator('label[for="created-key"]').textContent()) ?? '')?.[0] as string;
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: `Revoke ${keyId}` }).click();
  await page.getByRole('button', { name: `Yes, revoke ${keyId}` }).click();
  await expect(page.getByRole('row', { name: new RegExp(keyId) })).toContainText('Revoked');

  // The sandbox's signing secret rotated.
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Rotate signing secret' }).click();
  await page.getByRole('button', { name: 'Rotate now' }).click();
  await expect(page.getByLabel('New sandbox signing secret')).toHaveValue(/^whsec_/);

  // A customer's limit set.
  await page.getByRole('link', { name: 'Customer limits' }).click();
  const set = page.getByRole('form', { name: 'Set a limit' });
  await set.getByLabel("Customer's CPF").fill('52998224725');
  await set.getByLabel('Limit on').selectOption('cashout');
  await set.getByLabel('Limit by').selectOption('quantity');
  await set.getByLabel('Transactions per day').fill('3');
  await set.getByRole('button', { name: 'Set limit' }).click();
  await expect(page.getByTestId('limit')).toContainText('At most 3 transactions a day');

  // The test clock advanced.
  const today = (await page.getByTestId('clock-today').textContent()) as string;
  await page.getByLabel('Advance by days').fill('1');
  await page.getByLabel('and hours').fill('2');
  await page.getByRole('button', { name: 'Advance' }).click();
  await expect(page.getByTestId('clock-today')).not.toHaveText(today);

  // A member added, given another role, removed.
  const member = `bia-${accountId.slice(0, 8)}@audit.example`;
  await page.getByRole('link', { name: 'Team' }).click();
  await page.getByLabel('Email').fill(member);
  await page.getByLabel('Role', { exact: true }).selectOption('developer');
  await page.getByRole('button', { name: 'Add user' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByLabel(`Role of ${member}`).selectOption('viewer');
  await expect(page.getByLabel(`Role of ${member}`)).toHaveValue('viewer');
  await page.getByRole('button', { name: `Remove ${member}` }).click();
  await page.getByRole('button', { name: `Yes, remove ${member}` }).click();
  await expect(page.getByRole('row', { name: new RegExp(member) })).toHaveCount(0);

  // The integration sets a limit with its key: the merchant API names the key.
  const limit = await fetch(`${system.sandboxUrl}/v2/limits`, {
    method: 'POST',
    headers: { authorization: integration.api_key, 'content-type': 'application/json' },
    body: JSON.stringify({ document_number: '11144477735', type: 'cashin', mechanism: 'amount', amount: 500 }),
  });
  expect(limit.status).toBe(200);
  const finished = new Date().toISOString();

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'When (Brasília time)' })).toBeVisible();
  const rows = await rowsOf(page);
  // When: each the moment of its change, shown in Brasília time.
  for (const row of rows) expect(row.when).toBe(brasilia(row.at));
  const ours = rows.filter((row) => row.at >= started);
  for (const row of ours) expect(row.at <= finished).toBe(true);
  // The console's own key, issued when the overview first read the sandbox (pages reading at once may each issue one,
  // and all but the one kept are revoked at once: the log shows them all, by the console).
  const consoles = ours.filter((row) => row.who === 'The console (its own key)');
  expect(consoles.at(-1)).toEqual(expect.objectContaining({ what: 'Created an API key', environment: 'Sandbox' }));
  expect(consoles.every((row) => /^(Created|Revoked) an API key$/.test(row.what))).toBe(true);
  expect(ours.filter((row) => !consoles.includes(row)).map(({ who, what, which, environment }) => ({ who, what, which, environment }))).toEqual([
    {
      who: `Your integration, with API key ${integration.key_id}`,
      what: "Set a customer's cash-in limit: R$ 500,00 per transaction",
      which: 'Customer *********35',
      environment: 'Sandbox',
    },
    { who: owner, what: 'Removed a team member (viewer)', which: member, environment: 'Both' },
    { who: owner, what: "Changed a team member's role from developer to viewer", which: member, environment: 'Both' },
    { who: owner, what: 'Added a team member as developer', which: member, environment: 'Both' },
    { who: owner, what: 'Advanced the test clock by 1 day and 2 hours', which: 'The sandbox test clock', environment: 'Sandbox' },
    { who: owner, what: "Set a customer's cash-out limit: 3 transactions a day", which: 'Customer *********25', environment: 'Sandbox' },
    { who: owner, what: 'Rotated the webhook signing secret', which: 'The sandbox signing secret', environment: 'Sandbox' },
    { who: owner, what: 'Revoked an API key', which: keyId, environment: 'Sandbox' },
    { who: owner, what: 'Created an API key named “Caixa”', which: keyId, environment: 'Sandbox' },
  ]);
  // Before the owner signed in: the operator's changes, through the admin API.
  expect(rows.filter((row) => row.at < started).map(({ who, what }) => `${who}: ${what}`)).toEqual([
    'Your operator (admin API): Created an API key',
    'Your operator (admin API): Added a team member as viewer',
    'Your operator (admin API): Added a team member as developer',
    'Your operator (admin API): Added a team member as owner',
  ]);
  await expect(page.getByRole('button', { name: 'Older entries' })).toHaveCount(0);
  await screenshot(page, 'audit-log');
  await expectAccessible(page);
});

for (const role of ['developer', 'viewer'] as const) {
  test(`a ${role} has no audit log: no link, the page says so, and the server answers 403`, async ({ page, system }) => {
    await signIn(page, system, role);
    await expect(page.getByRole('link', { name: 'API keys' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
    const answer = await page.evaluate(async () => {
      const response = await fetch('/console/v1/audit-log');
      return { status: response.status, body: await response.json() };
    });
    expect(answer).toEqual({ status: 403, body: { message: "Only an owner may read the account's audit log" } });
    await page.goto(`${system.consoleUrl}/#/sandbox/audit-log`);
    await expect(page.getByTestId('owners-only')).toHaveText('Only an owner of your account reads its audit log.');
    await expect(page.getByTestId('audit-log')).toHaveCount(0);
  });
}
