import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { expect, expectAccessible, screenshot, signIn, test } from './support/console';
import { Receiver } from './support/receiver';

// The Webhook endpoints page against the whole system: an endpoint on the test's loopback added, edited, sent a test
// event it receives signed with its own secret, the secret revealed and rotated (both signatures during the overlap),
// disabled, deleted; a developer without the secret, a viewer reading only. Every endpoint a test adds it deletes, so
// that no other test's events reach a receiver that is gone. Their test events stay in the log: none is of a type the
// Webhooks tests look for there by name (charge.paid, pix_charge.refunded), nor has one of those in its name. The
// delivery log, filtered by the endpoint, names it on each of its deliveries.

/** The merchant API through the console, as the page calls it: the status and the answer. */
async function viaConsole(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = await (await fetch('/console/v1/session')).json();
      const response = await fetch(`/console/v1/${path}`, {
        method,
        headers: { 'x-csrf-token': session.csrf_token, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    { method, path, body },
  );
}

/** Deletes every sandbox endpoint of the account (an owner's page is open): what a failed test left. */
async function deleteEveryEndpoint(page: Page): Promise<void> {
  const { body } = await viaConsole(page, 'GET', 'sandbox/api/v2/webhooks/endpoints');
  for (const { endpoint_id: id } of (body as { endpoints?: { endpoint_id: string }[] }).endpoints ?? []) {
    await viaConsole(page, 'DELETE', `sandbox/api/v2/webhooks/endpoints/${id}`);
  }
}

/** The received request's body, verified with a secret (it throws when no signature of the request is that secret's). */
const verified = (secret: string, request: Receiver['received'][number]): unknown =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>);

/** The requests the receiver got of one event type (the account's other events may reach an endpoint that takes all). */
const receivedOf = (receiver: Receiver, type: string): Receiver['received'] =>
  receiver.received.filter((request) => (JSON.parse(request.body) as { type: string }).type === type);

test('an owner adds an endpoint, edits it, sends it a test event, reveals and rotates its secret, disables and deletes it', async ({ page, system }) => {
  test.setTimeout(120_000);
  const receiver = new Receiver(false);
  await receiver.start();
  const run = Date.now().toString(36);
  try {
    await signIn(page, system, 'owner');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('main').getByRole('link', { name: 'webhook endpoints' }).click();
    await expect(page.getByRole('heading', { name: 'Webhook endpoints', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Webhook endpoints · Sandbox · pixauto console');
    await expect(page.getByTestId('no-endpoints')).toBeVisible();

    // Added for two event types: its secret shown, and it is in the list.
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(receiver.url('/orders'));
    await page.getByLabel('Only the events chosen below').check();
    await page.getByLabel('pix_charge.refund_requested').check();
    await page.getByLabel('payout.returned').check();
    await page.getByLabel('Description (optional)').fill(`Orders ${run}`);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const created = page.getByTestId('created-endpoint-secret');
    await expect(created).toHaveValue(/^whsec_/);
    const secret = await created.inputValue();
    const row = page.getByTestId('endpoints').locator('tbody tr', { hasText: receiver.url('/orders') });
    await expect(row).toContainText('pix_charge.refund_requested, payout.returned');
    await expect(row).toContainText(`Orders ${run}`);
    await expect(row).toContainText('Enabled');
    await page.getByRole('button', { name: 'Done' }).click();

    // Edited: all events, another description.
    await row.getByRole('link').click();
    const endpoint = page.getByTestId('endpoint');
    await expect(endpoint.getByTestId('endpoint-url')).toHaveText(receiver.url('/orders'));
    await endpoint.getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByLabel('payout.returned')).toBeChecked();
    await page.getByLabel('All events (those added later too)').check();
    await page.getByLabel('Description (optional)').fill(`ERP ${run}`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(endpoint.getByRole('status')).toHaveText('Changes saved.');
    await expect(endpoint.getByTestId('endpoint-events')).toHaveText('All events');
    await expect(row).toContainText(`ERP ${run}`);
    await expect(row).toContainText('All events');

    // A refusal beside its field.
    await endpoint.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Endpoint URL').fill('ftp://loja.example/hooks');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.locator('#endpoint-url-problem')).toContainText('Endpoint URL must be an http(s) URL');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(endpoint.getByTestId('endpoint-url')).toHaveText(receiver.url('/orders'));

    // Revealed: the secret given at creation.
    await endpoint.getByRole('button', { name: 'Reveal secret' }).click();
    await expect(page.getByTestId('endpoint-secret')).toHaveValue(secret);

    // A test event: its result on the page, and the receiver got it signed with the endpoint's secret.
    await page.getByLabel('Event to send').selectOption('pix_charge.refund_requested');
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByTestId('test-result');
    await expect(result).toContainText('pix_charge.refund_requested sent as delivery msg_');
    await expect(result.getByTestId('test-answer')).toContainText('The endpoint answered HTTP 204');
    await expect(result).toContainText('Delivered');
    await expect.poll(() => receivedOf(receiver, 'pix_charge.refund_requested').length).toBe(1);
    expect(verified(secret, receivedOf(receiver, 'pix_charge.refund_requested')[0])).toMatchObject({
      type: 'pix_charge.refund_requested',
      environment: 'sandbox',
    });
    await page.getByRole('button', { name: 'Hide' }).click();
    await screenshot(page, 'webhook-endpoints');
    await expectAccessible(page);
    // The delivery is in the log.
    await result.getByRole('link', { name: /^msg_/ }).click();
    await expect(page.getByRole('heading', { name: /^Delivery msg_/ })).toBeVisible();
    await expect(page.getByText(`POST ${receiver.url('/orders')}`)).toBeVisible();
    await page.goBack();

    // Rotated, the previous secret signing for one more hour: each delivery carries both signatures meanwhile.
    await page.getByLabel('Keep the previous secret signing for').selectOption('1');
    await page.getByRole('button', { name: 'Rotate secret…' }).click();
    await expect(page.getByRole('group', { name: 'Confirm the rotation' })).toContainText('The current one keeps signing beside it for 1 hour.');
    await page.getByRole('button', { name: 'Rotate now' }).click();
    const rotated = page.getByTestId('rotated-secret');
    await expect(rotated).toContainText('The previous secret also signs until');
    const renewed = await page.getByLabel('New signing secret').inputValue();
    expect(renewed).toMatch(/^whsec_/);
    expect(renewed).not.toBe(secret);
    await page.getByLabel('Event to send').selectOption('payout.returned');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(result.getByTestId('test-answer')).toContainText('HTTP 204');
    await expect.poll(() => receivedOf(receiver, 'payout.returned').length).toBe(1);
    const [second] = receivedOf(receiver, 'payout.returned');
    expect((second.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verified(renewed, second)).toMatchObject({ type: 'payout.returned' });
    expect(verified(secret, second)).toMatchObject({ type: 'payout.returned' });
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await expect(page.getByTestId('endpoint-secret')).toHaveValue(renewed);
    await expect(endpoint).toContainText('The previous secret also signs until');

    // Disabled, then enabled again.
    await endpoint.getByRole('button', { name: 'Disable' }).click();
    await expect(endpoint.getByTestId('endpoint-status')).toHaveText('Disabled');
    await expect(row).toContainText('Disabled');
    // The API sends a disabled endpoint no test event: the page says so instead of offering one.
    await expect(endpoint.getByRole('button', { name: 'Send test event' })).toHaveCount(0);
    await expect(endpoint.getByTestId('test-disabled')).toHaveText('This endpoint is disabled: enable it to send it a test event.');
    await endpoint.getByRole('button', { name: 'Enable' }).click();
    await expect(endpoint.getByTestId('endpoint-status')).toHaveText('Enabled');
    await expect(row).toContainText('Enabled');
    await expect(endpoint.getByRole('button', { name: 'Send test event' })).toBeVisible();

    // The delivery log names each delivery's endpoint and filters by it: this one's two test events are there.
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByLabel('Endpoint', { exact: true }).selectOption({ label: `ERP ${run}` });
    await page.getByRole('button', { name: 'Filter' }).click();
    const deliveries = page.getByTestId('deliveries').locator('tbody tr');
    await expect(deliveries.filter({ hasText: 'pix_charge.refund_requested' })).toHaveCount(1);
    await expect(deliveries.filter({ hasText: 'payout.returned' })).toHaveCount(1);
    await expect(deliveries.filter({ hasNotText: `ERP ${run}` })).toHaveCount(0);
    await page.getByRole('main').getByRole('link', { name: 'webhook endpoints' }).click();

    // The other environment has endpoints of its own: none.
    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Production' }).click();
    await page.getByRole('link', { name: 'Webhook endpoints' }).click();
    await expect(page.getByTestId('no-endpoints')).toContainText('There is no endpoint in the production yet');
    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Sandbox' }).click();
    await page.getByRole('link', { name: 'Webhook endpoints' }).click();

    // Deleted, once confirmed.
    await row.getByRole('link').click();
    await endpoint.getByRole('button', { name: 'Delete…' }).click();
    await expect(page.getByRole('group', { name: 'Confirm the deletion' })).toContainText('this cannot be undone');
    await page.getByRole('button', { name: 'Keep it' }).click();
    await expect(row).toHaveCount(1);
    await endpoint.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await expect(page).toHaveURL(/#\/sandbox\/webhook-endpoints$/);
    await expect(page.getByTestId('no-endpoints')).toBeVisible();
  } finally {
    await deleteEveryEndpoint(page);
    await receiver.stop();
  }
});

test('a developer adds and tests endpoints but never sees a secret again; a viewer only reads; both fit a phone', async ({ page, system }) => {
  test.setTimeout(120_000);
  const receiver = new Receiver(false);
  await receiver.start();
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, system, 'developer');
    await page.getByRole('link', { name: 'Webhook endpoints' }).click();
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await page.getByLabel('Only the events chosen below').check();
    // The whole catalogue on a phone, nothing scrolling sideways.
    await expect(page.getByRole('group', { name: 'Event types' }).getByRole('checkbox')).toHaveCount(30);
    expect(await page.evaluate(() => (document.scrollingElement as Element).scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByLabel('recurrence.approved').check();
    await page.getByLabel('Endpoint URL').fill(receiver.url('/dev'));
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    // Its creator is shown its secret once, at creation.
    await expect(page.getByTestId('created-endpoint-secret')).toHaveValue(/^whsec_/);
    const row = page.getByTestId('endpoints').locator('tbody tr', { hasText: receiver.url('/dev') });
    const id = (await row.getAttribute('data-endpoint-id')) as string;
    await row.getByRole('link').click();
    const endpoint = page.getByTestId('endpoint');
    await expect(endpoint.getByRole('button', { name: 'Edit' })).toBeVisible();
    await expect(endpoint.getByRole('button', { name: 'Send test event' })).toBeVisible();
    await expect(endpoint.getByRole('button', { name: 'Reveal secret' })).toHaveCount(0);
    await expect(endpoint.getByRole('button', { name: 'Rotate secret…' })).toHaveCount(0);
    await expect(endpoint.getByTestId('secret-owners-only')).toContainText('Only an owner of your account reveals or rotates it.');
    expect(await page.evaluate(() => (document.scrollingElement as Element).scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    // The console server refuses them the secret, asked directly.
    for (const [method, path] of [
      ['GET', `sandbox/api/v2/webhooks/endpoints/${id}/secret`],
      ['POST', `sandbox/api/v2/webhooks/endpoints/${id}/secret/rotate`],
    ]) {
      const refused = await viaConsole(page, method, path, method === 'POST' ? {} : undefined);
      expect(refused.status, `${method} ${path}`).toBe(403);
    }
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByTestId('test-answer')).toContainText('HTTP 204');
    await expect.poll(() => receivedOf(receiver, 'recurrence.approved').length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Sign out' }).click();

    // A viewer reads the list and the endpoint, with nothing to change.
    await signIn(page, system, 'viewer');
    await page.getByRole('link', { name: 'Webhook endpoints' }).click();
    await expect(row).toContainText('recurrence.approved');
    await expect(page.getByRole('button', { name: 'Add an endpoint' })).toHaveCount(0);
    await row.getByRole('link').click();
    await expect(endpoint.getByTestId('endpoint-url')).toHaveText(receiver.url('/dev'));
    await expect(endpoint.getByRole('button')).toHaveCount(0);
    await expect(endpoint.getByTestId('secret-owners-only')).toBeVisible();
    await expectAccessible(page);
    const refused = await viaConsole(page, 'PATCH', `sandbox/api/v2/webhooks/endpoints/${id}`, { enabled: false });
    expect(refused.status).toBe(403);
    expect((await viaConsole(page, 'GET', `sandbox/api/v2/webhooks/endpoints/${id}/secret`)).status).toBe(403);
    await page.getByRole('button', { name: 'Sign out' }).click();
  } finally {
    await page.context().clearCookies();
    await signIn(page, system, 'owner');
    await deleteEveryEndpoint(page);
    await receiver.stop();
  }
});
