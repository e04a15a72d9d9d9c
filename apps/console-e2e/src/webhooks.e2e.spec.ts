import { Webhook } from 'standardwebhooks';
import { ADMIN_TOKEN, type ConsoleFixture } from './support/global-setup';
import { expect, expectAccessible, screenshot, signIn, test } from './support/console';
import { Receiver } from './support/receiver';

// The Webhooks page against the whole system: a merchant's endpoint on loopback that fails, then is fixed; its
// deliveries in the log, retried one by one or all that a filter matches; test events; the signing secret.

/** The account's signing secret of one environment, as the operator reads it. */
async function webhookSecret(system: ConsoleFixture, environment: 'production' | 'sandbox'): Promise<string> {
  const response = await fetch(`${system.adminUrl}/admin/accounts/${system.accountId}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const account = (await response.json()) as { webhook_secret: string; sandbox_webhook_secret: string };
  return environment === 'sandbox' ? account.sandbox_webhook_secret : account.webhook_secret;
}

test('a failing endpoint shows in the log; once fixed, a retry and a retry of all that match deliver; a test event is signed', async ({ page, system }) => {
  test.setTimeout(120_000);
  const endpoint = new Receiver();
  await endpoint.start();
  try {
    await signIn(page, system, 'developer');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await expect(page.getByTestId('clock-today')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
    await expectAccessible(page);

    // A payout event, to an endpoint that answers 500.
    await page.getByLabel('Event to send').selectOption('payout.status_changed');
    await page.getByLabel('Endpoint URL').fill(endpoint.url('/payouts'));
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByRole('heading', { name: /^Delivery msg_/ })).toBeVisible();
    const attempts = page.getByTestId('attempts').locator('tbody tr');
    await expect(attempts.first()).toContainText('HTTP 500');
    await expect(attempts.first()).toContainText('down for maintenance');
    await expect(page.getByTestId('delivery-status')).toHaveText('Pending');
    await expect(page.getByLabel('Request body')).toContainText('"type": "payout.status_changed"');
    // Signed with the account's sandbox secret, as every sandbox webhook, and saying so; never with the production secret.
    const [first] = endpoint.received;
    const production = await webhookSecret(system, 'production');
    expect(new Webhook(await webhookSecret(system, 'sandbox')).verify(first.body, first.headers as Record<string, string>)).toMatchObject({
      type: 'payout.status_changed',
      environment: 'sandbox',
      data: { status: 1 },
    });
    expect(() => new Webhook(production).verify(first.body, first.headers as Record<string, string>)).toThrow();
    // The log shows it failing. The schedule's second attempt (5 s later) fails too; the next is minutes away.
    await page.getByLabel('Status', { exact: true }).selectOption('pending');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByTestId('deliveries')).toContainText('HTTP 500');
    await expect(attempts).toHaveCount(2, { timeout: 20_000 });
    await screenshot(page, 'webhooks');
    await expectAccessible(page);

    endpoint.failing = false;
    await page.getByRole('button', { name: 'Retry now' }).click();
    await expect(page.getByTestId('delivery-status')).toHaveText('Delivered');
    await expect(attempts).toHaveCount(3);
    await expect(attempts.last()).toContainText('manual');
    await expect(attempts.last()).toContainText('HTTP 204');

    // Two more that fail while the endpoint is down, then all that match the filter retried at once.
    endpoint.failing = true;
    for (const type of ['charge.paid', 'pix_charge.refunded']) {
      await page.getByLabel('Event to send').selectOption(type);
      await page.getByLabel('Endpoint URL').fill(endpoint.url('/all'));
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect(page.getByLabel('Request body')).toContainText(`"type": "${type}"`);
      await expect(attempts).toHaveCount(2, { timeout: 20_000 });
    }
    await page.getByLabel('Status', { exact: true }).selectOption('pending');
    // Deliveries are dated by the sandbox's test clock, which other tests move.
    await page.getByLabel('Created from').fill((await page.getByTestId('clock-today').textContent()) as string);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByTestId('deliveries').locator('tbody tr')).toHaveCount(2);
    endpoint.failing = false;
    await page.getByRole('button', { name: 'Retry…' }).click();
    await expect(page.getByTestId('retry-review')).toContainText('Retry 2 pending deliveries?');
    await page.getByRole('button', { name: 'Yes, retry 2' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'queued' })).toHaveText('2 deliveries queued for one more attempt now.');
    await page.getByLabel('Status', { exact: true }).selectOption('delivered');
    await page.getByRole('button', { name: 'Filter' }).click();
    for (const type of ['charge.paid', 'pix_charge.refunded']) {
      await expect(page.getByTestId('deliveries').locator('tbody tr', { hasText: type })).toContainText('Delivered');
    }
    expect(endpoint.received.filter((r) => r.path === '/all')).toHaveLength(6);
  } finally {
    await endpoint.stop();
  }
});

test('an owner rotates the signing secret; a developer may not, and a viewer only reads the log', async ({ page, system }) => {
  await signIn(page, system, 'viewer');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send test event' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Retry/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Rotate signing secret' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign out' }).click();

  await signIn(page, system, 'developer');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('button', { name: 'Send test event' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rotate signing secret' })).toHaveCount(0);
  const refused = await page.evaluate(async () => {
    const session = await (await fetch('/console/v1/session')).json();
    const response = await fetch('/console/v1/webhook-secret', {
      method: 'POST',
      headers: { 'x-csrf-token': session.csrf_token, 'content-type': 'application/json' },
      body: JSON.stringify({ environment: 'sandbox' }),
    });
    return { status: response.status, body: await response.json() };
  });
  expect(refused).toEqual({ status: 403, body: { message: 'Only an owner may rotate the webhook signing secret' } });
  const before = await webhookSecret(system, 'sandbox');
  const production = await webhookSecret(system, 'production');
  await page.getByRole('button', { name: 'Sign out' }).click();

  await signIn(page, system, 'owner');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  const withoutToken = await page.evaluate(async () => (await fetch('/console/v1/webhook-secret', { method: 'POST' })).status);
  expect(withoutToken).toBe(403);
  expect(await webhookSecret(system, 'sandbox')).toBe(before);
  // The console shows the sandbox first: the owner rotates the sandbox secret, and production's stays as it was.
  await page.getByRole('button', { name: 'Rotate signing secret' }).click();
  await expect(page.getByRole('group', { name: 'Confirm the rotation' })).toContainText('The production secret is unchanged.');
  await page.getByRole('button', { name: 'Rotate now' }).click();
  const secret = page.getByLabel('New sandbox signing secret');
  await expect(secret).toHaveValue(/^whsec_/);
  expect(await secret.inputValue()).toBe(await webhookSecret(system, 'sandbox'));
  expect(await secret.inputValue()).not.toBe(before);
  expect(await webhookSecret(system, 'production')).toBe(production);
  await expect(page.getByRole('status').filter({ hasText: 'previous secret' })).toContainText('The previous secret also signs until');
  await expectAccessible(page);
});

test('a retry without a filter sends again the failed deliveries only, after saying how many and which', async ({ page, system }) => {
  test.setTimeout(120_000);
  const endpoint = new Receiver();
  await endpoint.start();
  try {
    await signIn(page, system, 'developer');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    // One delivered, one failing (pending its next attempt).
    endpoint.failing = false;
    await page.getByLabel('Event to send').selectOption('charge.paid');
    await page.getByLabel('Endpoint URL').fill(endpoint.url('/ok'));
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByTestId('delivery-status')).toHaveText('Delivered');
    endpoint.failing = true;
    await page.getByLabel('Event to send').selectOption('payout.returned');
    await page.getByLabel('Endpoint URL').fill(endpoint.url('/down'));
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByTestId('delivery-status')).toHaveText('Pending');
    const down = (await page.getByRole('heading', { name: /^Delivery msg_/ }).textContent())?.replace('Delivery ', '') as string;

    // No filter: failed ones by default, and nothing is sent before it is confirmed.
    await expect(page.getByLabel('Retry the deliveries this filter matches that are')).toHaveValue('failed');
    await page.getByRole('button', { name: 'Retry…' }).click();
    await expect(page.getByTestId('retry-review')).toContainText(/failed deliver/);
    await expect(page.getByTestId('retry-review')).not.toContainText('/ok');
    await expectAccessible(page);
    await page.getByRole('button', { name: /^(Keep them as they are|Close)$/ }).click();
    await expect(page.getByTestId('retry-review')).toHaveCount(0);

    await page.getByLabel('Retry the deliveries this filter matches that are').selectOption('pending');
    await page.getByRole('button', { name: 'Retry…' }).click();
    const review = page.getByTestId('retry-review');
    await expect(review).toContainText(/Retry \d+ pending deliver/);
    await expect(review).toContainText('payout.returned');
    await expect(review).not.toContainText('delivered,');
    const okBefore = endpoint.received.filter((r) => r.path === '/ok').length;
    const downBefore = endpoint.received.filter((r) => r.path === '/down').length;
    endpoint.failing = false;
    await review.getByRole('button', { name: /^Yes, retry \d+$/ }).click();
    await expect(page.getByRole('status').filter({ hasText: 'queued' })).toBeVisible();
    await page.goto(`${system.consoleUrl}/#/sandbox/webhooks/${down}`);
    await expect(page.getByTestId('delivery-status')).toHaveText('Delivered');
    expect(endpoint.received.filter((r) => r.path === '/down').length).toBe(downBefore + 1);
    // The endpoint that had its delivery got no duplicate.
    expect(endpoint.received.filter((r) => r.path === '/ok').length).toBe(okBefore);
  } finally {
    await endpoint.stop();
  }
});
