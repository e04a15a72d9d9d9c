import { dayAfter, expect, expectAccessible, screenshot, signIn, test } from './support/console';

// The merchant console in Debian's chromium, against the whole system: what a merchant does, and what the console
// refuses. Every test also checks that no answer to the browser carries an API key and that nothing leaves loopback.

test('signs in, shows the sandbox unmistakably, and keeps the session out of reach of scripts', async ({ page, system }) => {
  await page.goto(`${system.consoleUrl}/`);
  await expect(page.getByRole('heading', { name: 'pixauto console' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, 'sign-in');

  await page.getByLabel('Email').fill(system.users.developer);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Email or password is wrong');

  await signIn(page, system, 'developer');
  await expect(page.getByTestId('sandbox-banner')).toContainText('Sandbox');
  await expect(page.getByTestId('clock-today')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
  expect(await page.evaluate(() => document.cookie)).toBe('');
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Production' }).click();
  await expect(page.getByTestId('sandbox-banner')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New recurrence' })).toHaveCount(0); // a developer only reads production

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect((await page.request.get(`${system.consoleUrl}/console/v1/session`)).status()).toBe(401);
});

test('creates a recurrence, authorizes it as the payer, advances the clock and sees the charge paid', async ({ page, system }) => {
  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Recurrences', exact: true }).click();
  await expect(page.getByTestId('clock-today')).toHaveText(/^\d{4}-\d{2}-\d{2}$/); // read once the clock has answered
  await screenshot(page, 'recurrences');
  const today = (await page.getByTestId('clock-today').textContent()) as string;

  await page.getByRole('link', { name: 'New recurrence' }).click();
  await page.getByRole('button', { name: 'Create recurrence' }).click();
  // The API's own messages, beside the fields they are about, in the form's words: the field's label, not its path.
  await expect(page.locator('.field', { hasText: "Payer's name" }).getByRole('alert')).toHaveText("Payer's name is a required field");
  await expect(page.locator('.field', { hasText: 'Your identifier (contract)' }).getByRole('alert')).toHaveText('Your identifier is a required field');
  await expect(page.getByRole('main').getByText(/body\./)).toHaveCount(0);
  await expectAccessible(page);

  const contract = `console-${Date.now().toString(36)}`;
  await page.getByLabel('Your identifier (contract)').fill(contract);
  await page.getByLabel("Payer's CPF or CNPJ").fill('52998224725');
  await page.getByLabel("Payer's name").fill('Maria Silva');
  await page.getByLabel('Amount of each charge (R$)').fill('19.90');
  await page.getByLabel('First charge on').fill(dayAfter(today, 5));
  await page.getByLabel('Every', { exact: true }).selectOption('Monthly');
  await screenshot(page, 'new-recurrence');
  await page.getByRole('button', { name: 'Create recurrence' }).click();

  await expect(page.getByRole('heading', { name: `Recurrence ${contract}` })).toBeVisible();
  await expect(page.getByTestId('recurrence-status')).toHaveText("Awaiting the payer's approval");
  await expect(page.getByText('Monthly, from')).toBeVisible();
  await expect(page.getByText('Not authorized yet')).toBeVisible();
  await expect(page.getByTestId('next-charge')).toHaveCount(0);
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expect(page.getByLabel('Pix copy and paste')).toHaveValue(/^000201/);
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page.getByTestId('recurrence-status')).toHaveText('Active');
  await expect(page.getByText('The payer scanned the QR code', { exact: true })).toBeVisible();
  // Approved: its next charge, and no longer the code to approve it with nor the payer's answers.
  await expect(page.getByTestId('next-charge')).toContainText(/R\$\s19,90 due \d{4}-\d{2}-\d{2}/);
  const firstDue = /due (\d{4}-\d{2}-\d{2})/.exec((await page.getByTestId('next-charge').textContent()) as string)?.[1] as string;
  await expect(page.getByRole('img', { name: /QR code/ })).toHaveCount(0);
  await expect(page.getByLabel('Pix copy and paste')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Authorize' })).toHaveCount(0);

  await page.getByLabel('Advance by days').fill('10');
  await page.getByRole('button', { name: 'Advance' }).click();
  await expect(page.getByTestId('charges')).toContainText('Paid', { timeout: 45_000 });
  // The first charge paid, the next one is the schedule's second.
  await expect(page.getByTestId('next-charge')).toContainText(/R\$\s19,90 due \d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId('next-charge')).not.toContainText(`due ${firstDue}`);
  await screenshot(page, 'recurrence');
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Recurrences', exact: true }).click();
  await expect(page.getByRole('link', { name: contract })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(contract) })).toContainText('Monthly');
  await expect(page.getByRole('row', { name: new RegExp(contract) })).toContainText('Active');
});

test('a viewer reads but cannot act, and the server refuses it when asked directly', async ({ page, system }) => {
  await signIn(page, system, 'viewer');
  await page.getByRole('link', { name: 'Recurrences', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Recurrences' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New recurrence' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Advance' })).toHaveCount(0);
  const answer = await page.evaluate(async () => {
    const session = await (await fetch('/console/v1/session')).json();
    const response = await fetch('/console/v1/sandbox/api/v2/sandbox/clock/advance', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
      body: JSON.stringify({ days: 1 }),
    });
    return { status: response.status, body: await response.json() };
  });
  expect(answer).toEqual({ status: 403, body: { message: 'A viewer may not make changes in sandbox' } });
});

test('refuses a change without the CSRF token, or from another origin', async ({ page, system }) => {
  await signIn(page, system, 'developer');
  const answers = await page.evaluate(async () => {
    const session = await (await fetch('/console/v1/session')).json();
    const advance = (headers: Record<string, string>) =>
      fetch('/console/v1/sandbox/api/v2/sandbox/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"days":0}',
      });
    const withoutToken = await advance({});
    const wrongToken = await advance({ 'x-csrf-token': 'not-the-token' });
    const withToken = await advance({ 'x-csrf-token': session.csrf_token });
    return { withoutToken: withoutToken.status, wrongToken: wrongToken.status, withToken: withToken.status, message: (await withoutToken.json()).message };
  });
  // With the token the request reaches the merchant API (0 days: the clock answered, unmoved).
  expect(answers).toEqual({
    withoutToken: 403,
    wrongToken: 403,
    withToken: 200,
    message: 'This request lacks the CSRF token of your session: reload the page and try again',
  });
  // Sign-in itself (no session yet) from another site's page.
  const crossSite = await page.request.post(`${system.consoleUrl}/console/v1/session`, {
    headers: { origin: 'http://shop.example' },
    data: { email: system.users.developer, password: 'whatever it is' },
  });
  expect(crossSite.status()).toBe(403);
});

test('serves its pages with a strict Content-Security-Policy and the usual security headers', async ({ page, system }) => {
  const response = await page.goto(`${system.consoleUrl}/`);
  const headers = response!.headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).not.toContain('unsafe-inline');
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
  const signedIn = await page.request.post(`${system.consoleUrl}/console/v1/session`, { data: { email: system.users.owner, password: 'wrong, twice over' } });
  expect(signedIn.status()).toBe(401);
});

test('a recurrence sends webhooks to the URL given at creation, and its Change form edits what the API lets change', async ({ page, system }) => {
  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Recurrences', exact: true }).click();
  await expect(page.getByTestId('clock-today')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
  const today = (await page.getByTestId('clock-today').textContent()) as string;
  await page.getByRole('link', { name: 'New recurrence' }).click();
  const contract = `webhook-${Date.now().toString(36)}`;
  await page.getByLabel('Your identifier (contract)').fill(contract);
  await page.getByLabel("Payer's CPF or CNPJ").fill('52998224725');
  await page.getByLabel("Payer's name").fill('Maria Silva');
  await page.getByLabel('Amount of each charge (R$)').fill('10');
  await page.getByLabel('First charge on').fill(dayAfter(today, 20));
  await page.getByLabel('Webhook URL (optional)').fill('http://127.0.0.1:9/recurrences');
  await page.getByRole('button', { name: 'Create recurrence' }).click();
  await expect(page.getByRole('heading', { name: `Recurrence ${contract}` })).toBeVisible();
  await expect(page.getByTestId('recurrence-webhook')).toHaveText('http://127.0.0.1:9/recurrences');

  await page.getByLabel('Webhook URL', { exact: true }).fill('http://127.0.0.1:9/elsewhere');
  await page.getByLabel('First charge on').fill(dayAfter(today, 25));
  await page.getByLabel(/days before its due date/).fill('7');
  await page.getByLabel(/next business day/).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Changes saved.' })).toBeVisible();
  await expect(page.getByTestId('recurrence-webhook')).toHaveText('http://127.0.0.1:9/elsewhere');
  await expect(page.locator('.terms')).toContainText(`from ${dayAfter(today, 25)}`);
  await expect(page.locator('.terms')).toContainText('7 days before each due date');
  await expect(page.locator('.terms')).toContainText('Moved to the next business day');
  await expectAccessible(page);

  // A refusal goes beside its field; an empty URL clears the webhook.
  await page.getByLabel(/days before its due date/).fill('2');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('.field', { hasText: 'days before its due date' }).getByRole('alert')).toHaveText('Lead days must be an integer between 3 and 10');
  await page.getByLabel(/days before its due date/).fill('7');
  await page.getByLabel('Webhook URL', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('recurrence-webhook')).toHaveText('None: this recurrence sends no webhooks');
});
