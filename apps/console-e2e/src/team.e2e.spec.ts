import type { Browser, Page } from '@playwright/test';
import { admin, PASSWORD, userWithPassword } from './support/global-setup';
import { expect, expectAccessible, screenshot, signIn, test } from './support/console';

// The account's console users: an owner adds one with a one-time sign-in link, changes roles, removes users (whose
// sessions end at once); nobody else may; every user changes their own password. Each test on an account of its own,
// so that the other specs' users stay as they are.

async function newAccount(adminUrl: string, name: string): Promise<{ accountId: string; owner: string }> {
  const { account_id: accountId } = await admin<{ account_id: string }>(adminUrl, 'POST', '/admin/accounts', { name });
  const owner = `owner-${accountId.slice(0, 8)}@time.example`;
  await userWithPassword(adminUrl, accountId, owner, 'owner');
  return { accountId, owner };
}

/** What the console server answers a page about its session: 200 while it lasts, 401 once it has ended. */
const sessionStatus = (page: Page): Promise<number> => page.evaluate(async () => (await fetch('/console/v1/session')).status);

/** A browser of its own (no cookie shared with the test's page), on a page of the console. */
async function elsewhere(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test('an owner adds a user, who sets a password with the link, once, and signs in with it', async ({ page, system, browser }) => {
  const { owner } = await newAccount(system.adminUrl, 'Loja do Time');
  const email = `nova-${Date.now().toString(36)}@time.example`;
  await signIn(page, system, 'owner', owner);
  await page.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('heading', { name: 'Team' })).toBeVisible();
  await expect(page.getByTestId('team')).toContainText(`${owner} (you)`);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('developer');
  await page.getByRole('button', { name: 'Add user' }).click();
  const shown = page.getByTestId('sign-in-link');
  await expect(shown).toHaveValue(new RegExp(`^${system.consoleUrl}/#/set-password/[A-Za-z0-9_-]{43}$`));
  const link = await shown.inputValue();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Never');
  await expectAccessible(page);
  await screenshot(page, 'team');

  // Opened in another browser: the user chooses a password, and is signed in.
  const invited = await elsewhere(browser);
  await invited.goto(link);
  await expect(invited.getByRole('button', { name: 'Set password and sign in' })).toBeVisible();
  // The token leaves the address bar (and the history) as the page opens.
  await expect(invited).toHaveURL(`${system.consoleUrl}/#/set-password`);
  await expectAccessible(invited);
  await invited.getByLabel('New password').fill(PASSWORD);
  await invited.getByLabel('Repeat the password').fill(`${PASSWORD} but different`);
  await invited.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(invited.locator('.field', { hasText: 'Repeat the password' }).getByRole('alert')).toHaveText(
    'The two passwords differ: type the same one twice',
  );
  await invited.getByLabel('Repeat the password').fill(PASSWORD);
  await invited.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(invited.getByText(`${email} (Developer)`)).toBeVisible();
  expect(invited.url()).not.toContain('set-password');

  // The link works once: opened again, the page says at once that it is dead, and asks for no password.
  const again = await elsewhere(browser);
  await again.goto(link);
  await expect(again).toHaveURL(`${system.consoleUrl}/#/set-password`);
  await expect(again.getByTestId('link-dead')).toHaveText('This sign-in link has expired or was already used: ask an owner of your account for a new one');
  await expect(again.getByLabel('New password')).toHaveCount(0);
  await expectAccessible(again);
  await screenshot(again, 'sign-in-link-used');
  await again.getByRole('link', { name: 'Go to sign in' }).click();
  await expect(again.getByRole('button', { name: 'Sign in' })).toBeVisible();

  // The password chosen is the one that signs in.
  const later = await elsewhere(browser);
  await signIn(later, system, 'developer', email);
  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(email) })).not.toContainText('Never');
});

test("an owner changes a user's role and removes them, whose session ends at once; the last owner stays", async ({ page, system, browser }) => {
  const { accountId, owner } = await newAccount(system.adminUrl, 'Loja das Funções');
  const email = `bia-${accountId.slice(0, 8)}@time.example`;
  await userWithPassword(system.adminUrl, accountId, email, 'viewer');
  const theirs = await elsewhere(browser);
  await signIn(theirs, system, 'viewer', email);

  await signIn(page, system, 'owner', owner);
  await page.getByRole('link', { name: 'Team' }).click();
  await page.getByLabel(`Role of ${email}`).selectOption('developer');
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue('developer');
  // Their open session acts as a developer from its next request.
  expect(await theirs.evaluate(async () => (await (await fetch('/console/v1/session')).json()).role)).toBe('developer');

  await page.getByRole('button', { name: `Remove ${email}` }).click();
  await expectAccessible(page);
  await page.getByRole('button', { name: `Yes, remove ${email}` }).click();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
  expect(await sessionStatus(theirs)).toBe(401);
  await theirs.reload();
  await expect(theirs.getByRole('button', { name: 'Sign in' })).toBeVisible();

  // The account's only owner can neither step down nor leave.
  await page.getByLabel(`Role of ${owner}`).selectOption('viewer');
  await expect(page.getByRole('alert')).toHaveText('The account must keep at least one owner: make another user an owner first');
  await expect(page.getByLabel(`Role of ${owner}`)).toHaveValue('owner');
  await page.getByRole('button', { name: `Remove ${owner}` }).click();
  await page.getByRole('button', { name: `Yes, remove ${owner}` }).click();
  await expect(page.getByRole('alert')).toHaveText('The account must keep at least one owner: make another user an owner first');
  expect(await sessionStatus(page)).toBe(200);
});

test('a developer sees no team management, and the server refuses it when asked directly', async ({ page, system }) => {
  await signIn(page, system, 'developer');
  await expect(page.getByRole('link', { name: 'Your account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Team' })).toHaveCount(0);
  const answers = await page.evaluate(async () => {
    const session = await (await fetch('/console/v1/session')).json();
    const headers = { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token };
    const list = await fetch('/console/v1/users');
    const create = await fetch('/console/v1/users', { method: 'POST', headers, body: JSON.stringify({ email: 'sneaky@time.example', role: 'owner' }) });
    const promote = await fetch(`/console/v1/users/${encodeURIComponent(session.email)}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ role: 'owner' }),
    });
    return Promise.all([list, create, promote].map(async (answer) => [answer.status, (await answer.json()).message]));
  });
  const refused = [403, "Only an owner may manage the account's console users"];
  expect(answers).toEqual([refused, refused, refused]);
  // Nothing was made.
  const { console_users: users } = await admin<{ console_users: Array<{ email: string; role: string }> }>(
    system.adminUrl,
    'GET',
    `/admin/accounts/${system.accountId}/console-users`,
  );
  expect(users.map((user) => [user.email, user.role]).sort()).toEqual(
    Object.entries(system.users)
      .map(([role, email]) => [email, role])
      .sort(),
  );
});

test('a user changes their password with the current one, which ends their other sessions', async ({ page, system, browser }) => {
  const { accountId } = await newAccount(system.adminUrl, 'Loja da Senha');
  const email = `caio-${accountId.slice(0, 8)}@time.example`;
  const newPassword = 'a brand new console passphrase';
  await userWithPassword(system.adminUrl, accountId, email, 'viewer');
  const other = await elsewhere(browser);
  await signIn(other, system, 'viewer', email);
  await signIn(page, system, 'viewer', email);

  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await page.getByLabel('Current password').fill('not my password at all');
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.locator('.field', { hasText: 'Current password' }).getByRole('alert')).toHaveText('Current password is wrong');
  expect(await sessionStatus(other)).toBe(200);
  await expectAccessible(page);

  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password is changed')).toBeVisible();
  expect(await sessionStatus(other)).toBe(401);
  expect(await sessionStatus(page)).toBe(200);

  const fresh = await elsewhere(browser);
  await fresh.goto(`${system.consoleUrl}/`);
  await fresh.getByLabel('Email').fill(email);
  await fresh.getByLabel('Password').fill(PASSWORD);
  await fresh.getByRole('button', { name: 'Sign in' }).click();
  await expect(fresh.getByRole('alert')).toHaveText('Email or password is wrong');
  await fresh.getByLabel('Password').fill(newPassword);
  await fresh.getByRole('button', { name: 'Sign in' }).click();
  await expect(fresh.getByText(`${email} (Viewer)`)).toBeVisible();
});

test('a viewer or a developer opening the Team page is told it is for owners, not shown a blank page', async ({ page, system }) => {
  for (const role of ['viewer', 'developer'] as const) {
    await signIn(page, system, role);
    await page.goto(`${system.consoleUrl}/#/sandbox/team`);
    await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
    await expect(page.getByTestId('owners-only')).toContainText('Only an owner of your account manages its users');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
  }
});
