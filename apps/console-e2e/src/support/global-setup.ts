import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHROMIUM_PATH } from '../../playwright.config';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const ADMIN_TOKEN = 'e2e-admin-token';
/** The password of every console user the suite creates. */
export const PASSWORD = 'console e2e passphrase';

interface RunningSystem {
  profile: { console: number; admin: number; sandbox: number };
  stop(): Promise<void>;
}

/** What the tests read of the system the setup started (Playwright passes the setup's environment to the workers). */
export interface ConsoleFixture {
  consoleUrl: string;
  adminUrl: string;
  /** The gateway's sandbox listener, where a test calls the merchant API with a key as an integration does. */
  sandboxUrl: string;
  accountId: string;
  users: Record<'owner' | 'developer' | 'viewer', string>;
}

export async function admin<T>(adminUrl: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${adminUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** What the admin API answers to a new console user: the user, and their one-time sign-in link. */
export interface SignInLink {
  user: { user_id: string; email: string; role: string };
  sign_in_url: string;
}

/**
 * A console user of the account with PASSWORD as their password, as every user gets one: created without a password,
 * then their sign-in link used (here straight at the admin API, as the console server does it).
 */
export async function userWithPassword(adminUrl: string, accountId: string, email: string, role: string): Promise<void> {
  const { sign_in_url: url } = await admin<SignInLink>(adminUrl, 'POST', `/admin/accounts/${accountId}/console-users`, { email, role });
  await admin(adminUrl, 'POST', '/admin/console-users/sign-in-link', { token: url.split('#/set-password/')[1], password: PASSWORD });
}

/** Debian's chromium, installed the way the scripts install PostgreSQL and Redis when it is not there. */
async function ensureChromium(): Promise<void> {
  if (fs.existsSync(CHROMIUM_PATH)) return;
  const infra = (await import(pathToFileURL(path.join(ROOT, 'deploy', 'scripts', 'infra.mjs')).href)) as {
    aptInstall: (packages: string[], why: string) => Promise<void>;
  };
  await infra.aptInstall(['chromium'], 'the console browser tests');
}

/**
 * The whole system, as `npm start` runs it (deploy/scripts/system.cjs) on the e2e profile, every app on loopback only,
 * and one account with an owner, a developer and a viewer. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  await ensureChromium();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is the plain-Node script npm start uses
  const launcher = require(path.join(ROOT, 'deploy', 'scripts', 'system.cjs')) as { startSystem: (options: object) => Promise<RunningSystem> };
  const loopbackOnly = `--require ${path.join(ROOT, 'apps', 'api-e2e', 'src', 'support', 'loopback-only.cjs')}`;
  const system = await launcher.startSystem({
    profile: process.env.E2E_PROFILE ?? 'e2e',
    adminToken: ADMIN_TOKEN,
    everyAppEnv: { NODE_OPTIONS: loopbackOnly },
    // The bank leaves sandbox payouts open (it pays them by itself after 1.5 s otherwise): the tests act as the bank.
    appEnv: { 'bank-simulator': { SIMULATOR_PAYOUT_SETTLE_MS: String(10 * 60_000) } },
  });
  try {
    const adminUrl = `http://127.0.0.1:${system.profile.admin}`;
    const { account_id: accountId } = await admin<{ account_id: string }>(adminUrl, 'POST', '/admin/accounts', { name: 'Loja do Console' });
    const run = accountId.slice(0, 8);
    const users = { owner: `owner-${run}@loja.example`, developer: `dev-${run}@loja.example`, viewer: `viewer-${run}@loja.example` };
    for (const [role, email] of Object.entries(users)) await userWithPassword(adminUrl, accountId, email, role);
    const fixture: ConsoleFixture = {
      consoleUrl: `http://127.0.0.1:${system.profile.console}`,
      adminUrl,
      sandboxUrl: `http://127.0.0.1:${system.profile.sandbox}`,
      accountId,
      users,
    };
    process.env.CONSOLE_E2E = JSON.stringify(fixture);
  } catch (error) {
    await system.stop();
    throw error;
  }
  return () => system.stop();
}
