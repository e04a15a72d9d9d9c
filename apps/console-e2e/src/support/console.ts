import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Page, type Request } from '@playwright/test';
import type { ConsoleFixture } from './global-setup';
import { PASSWORD } from './global-setup';

/** An API key's shape (`pix_live_...`, `pix_test_...`): never in anything the console server sends a browser. */
export const API_KEY = /pix_(live|test)_[A-Za-z0-9_-]{8,}/;

type Role = keyof ConsoleFixture['users'];

export const test = base.extend<{ system: ConsoleFixture; answers: AnswersSeen }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  system: async ({}, use) => {
    await use(JSON.parse(process.env.CONSOLE_E2E as string) as ConsoleFixture);
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  answers: async ({}, use) => {
    await use({ count: 0, withKey: [] });
  },
  /**
   * Every request of the page stays on loopback: anything else (a font, a CDN, analytics) is aborted and fails the
   * test. Every answer the browser gets is read whole on its way: none may carry an API key, whatever the test did.
   */
  context: async ({ context, answers }, use) => {
    const strayed: string[] = [];
    await context.route('**/*', async (route) => {
      const { hostname } = new URL(route.request().url());
      if (hostname !== '127.0.0.1' && hostname !== 'localhost') {
        strayed.push(route.request().url());
        return route.abort('blockedbyclient');
      }
      const response = await route.fetch({ maxRedirects: 0 });
      const body = await response.body().catch((error: Error) => {
        // The test ended while this answer was on its way (a page still reading): no browser will get it.
        if (error.message.includes('disposed')) return undefined;
        throw error;
      });
      if (body === undefined) return route.abort().catch(() => undefined);
      answers.count++;
      const text = `${JSON.stringify(response.headers())}\n${body.toString('latin1')}`;
      const key = API_KEY.exec(issuesKey(route.request(), response.status()) ? withoutIssuedKey(text, body) : text);
      if (key) answers.withKey.push(`${route.request().url()}: ${key[0].slice(0, 12)}...`);
      await route.fulfill({ response, body });
    });
    await use(context);
    // A page that reads by itself (the Webhooks page) may have a request out as the test ends: once the context closes
    // its answer is disposed unread, and the browser never gets it.
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    expect(strayed, 'requests beyond loopback').toEqual([]);
    expect(answers.withKey, 'answers to the browser carrying an API key').toEqual([]);
    expect(answers.count, 'answers the browser got').toBeGreaterThan(0);
  },
});

/**
 * The one answer allowed to carry a key: a new key's, to the POST that creates it (shown to the user once). Only its
 * `api_key` field may: anything else in it shaped like a key still fails the test, as does the same key in any other answer.
 */
const issuesKey = (request: Request, status: number): boolean =>
  request.method() === 'POST' && new URL(request.url()).pathname === '/console/v1/api-keys' && status === 201;
const withoutIssuedKey = (text: string, body: Buffer): string => text.replace((JSON.parse(body.toString('utf8')) as { api_key: string }).api_key, '');

/** The answers the browser got in a test, and those that carried an API key (none may). */
interface AnswersSeen {
  count: number;
  withKey: string[];
}

export { expect };

export async function signIn(page: Page, system: ConsoleFixture, role: Role, email = system.users[role]): Promise<void> {
  await page.goto(`${system.consoleUrl}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(email)).toBeVisible();
}

/** axe finds no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const grave = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(grave.map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((node) => node.target.join(' ')) }))).toEqual([]);
}

/** The page as a picture for docs/console.md, when CONSOLE_SCREENSHOTS is set (never in a plain test run). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS) await page.screenshot({ path: `${__dirname}/../../../../docs/images/console-${name}.png`, fullPage: true });
}

/** The API's date rules follow the sandbox's clock: a day after its today. */
export function dayAfter(today: string, days: number): string {
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
