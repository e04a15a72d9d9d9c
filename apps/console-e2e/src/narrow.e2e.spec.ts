import type { Page } from '@playwright/test';
import { dayAfter, expect, expectAccessible, signIn, test } from './support/console';

// The console on a phone: every page at 390 px wide, none scrolling sideways, Sign out within reach, each with its title;
// and on every page each field has a label of its own (two fields with one label leave the user guessing which is which).

const WIDTH = 390;
/** The pages with no field at all. */
const WITHOUT_FIELDS = new Set(['audit-log']);

/** Creates through the console's way to the API (as the page does) and answers the new resource. */
async function created(page: Page, path: string, body: unknown): Promise<Record<string, unknown>> {
  return page.evaluate(
    async ({ path, body }) => {
      const session = await (await fetch('/console/v1/session')).json();
      const response = await fetch(`/console/v1/sandbox/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    { path, body },
  );
}

test(`every page fits a ${WIDTH} px wide screen, Sign out in sight, no two fields sharing a label`, async ({ page, system }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: WIDTH, height: 844 });
  await signIn(page, system, 'owner');
  await expect(page.getByTestId('clock-today')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
  const today = (await page.getByTestId('clock-today').textContent()) as string;
  const run = Date.now().toString(36);
  const recurrence = await created(page, '/v2/automatic-pix/recurrences', {
    transaction_id: `estreito-${run}`,
    debtor: { document_number: '52998224725', name: 'Maria Silva' },
    schedule: { start_date: dayAfter(today, 20), periodicity: 'MONTHLY' },
    amount: 19.9,
    retry_policy: 'NOT_ALLOWED',
  });
  const charge = await created(page, '/v2/pix', {
    transaction_id: `estreito-${run}`,
    amount: 10,
    payer: { document_number: '52998224725', name: 'Maria Silva' },
  });
  const payout = await created(page, '/v2/payout/pix', {
    transaction_id: `estreito-${run}`,
    amount: 1,
    name: 'Maria Silva',
    document_number: '39053344705',
    pix_key: 'maria@example.com',
  });

  // Disabled: it receives none of the events the other tests make, and it is deleted at the end.
  const endpoint = await created(page, '/v2/webhooks/endpoints', {
    url: 'https://loja.example/webhooks/pixauto-orders-and-payouts',
    event_types: ['pix_charge.paid', 'payout.returned'],
    description: `A long description to see it wrap on a phone ${run}`,
    enabled: false,
  });

  const places = [
    'overview',
    'recurrences',
    'new-recurrence',
    `recurrences/${recurrence.recurrence_id as string}`,
    'pix',
    `pix/${charge.id as number}`,
    'payouts',
    `payouts/${payout.id as number}`,
    'limits',
    'webhooks',
    'webhook-endpoints',
    `webhook-endpoints/${endpoint.endpoint_id as string}`,
    'requests',
    'api-keys',
    'team',
    'audit-log',
    'account',
  ];
  for (const place of places) {
    await page.goto(`${system.consoleUrl}/#/sandbox/${place}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Loading…')).toHaveCount(0);
    // Each page names itself in the tab and the history.
    await expect(page).toHaveTitle(/^[A-Z][^·]+ · Sandbox · pixauto console$/);
    const width = await page.evaluate(() => (document.scrollingElement as Element).scrollWidth);
    expect(width, `${place} scrolls sideways`).toBeLessThanOrEqual(WIDTH);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeInViewport();
    const labels = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea'))
        .filter((field) => field.type !== 'hidden')
        .map((field) =>
          field.labels && field.labels.length > 0
            ? Array.from(field.labels, (label) => (label.textContent ?? '').trim()).join(' ')
            : (field.getAttribute('aria-label') ?? `(no label: ${field.name || field.id})`),
        ),
    );
    // Every page has fields (the test clock's at least), but the audit log, which only reads: the check is never vacuous.
    expect(labels.length > 0, `${place} has fields`).toBe(!WITHOUT_FIELDS.has(place));
    expect(
      labels.filter((label, i) => labels.indexOf(label) !== i),
      `${place}: fields sharing a label`,
    ).toEqual([]);
  }
  await expectAccessible(page);
  await page.evaluate(async (id) => {
    const session = await (await fetch('/console/v1/session')).json();
    await fetch(`/console/v1/sandbox/api/v2/webhooks/endpoints/${id}`, { method: 'DELETE', headers: { 'x-csrf-token': session.csrf_token } });
  }, endpoint.endpoint_id as string);
});
