import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { eventually } from '@pixauto/testing';
import { admin, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { RunningSystem, startSystem, WITHIN_SECONDS } from './support/running-system';

// The merchant console's server over HTTP (docs/security.md "The console"): sign-in attempts throttled without locking
// anyone out, concurrent guesses counted before their check, the way to the merchant API limited to the console's own
// routes on the configured API, who made each change, and emails scoped to their account. The console sits behind a
// proxy here as in production: CONSOLE_TRUSTED_PROXIES names loopback, so X-Forwarded-For tells clients apart.

const PASSWORD = 'console security passphrase';
const run = randomBytes(3).toString('hex');
let system: RunningSystem;
let merchant: Merchant;
let consolePort: number;
/** A client address of this run alone (the sign-in counters outlive a run by their 15 minutes). */
const client = (n: number): string => `2001:db8:${run.slice(0, 4)}:${run.slice(4)}::${n}`;

beforeAll(async () => {
  system = await startSystem({ appEnv: { 'console-server': { CONSOLE_TRUSTED_PROXIES: '127.0.0.1' } } });
  consolePort = (system.profile as unknown as { console: number }).console;
  merchant = await newMerchant(system);
});
afterAll(() => system?.stop());

/** A console user of the account whose password is PASSWORD, chosen with their sign-in link. */
async function user(email: string, role = 'owner', accountId = merchant.accountId): Promise<void> {
  const created = await admin(system, 'POST', `/admin/accounts/${accountId}/console-users`, { email, role });
  expect(created.status).toBe(201);
  const token = (created.body.sign_in_url as string).split('#/set-password/')[1];
  expect((await admin(system, 'POST', '/admin/console-users/sign-in-link', { token, password: PASSWORD })).status).toBe(200);
}

interface ConsoleAnswer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
  ms: number;
}

async function consoleCall(
  method: string,
  path: string,
  options: { json?: unknown; client?: string; session?: Session; headers?: Record<string, string> } = {},
): Promise<ConsoleAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  if (options.client) headers['x-forwarded-for'] = options.client;
  if (options.session) Object.assign(headers, { cookie: options.session.cookie, 'x-csrf-token': options.session.csrf });
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${consolePort}${path}`, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML or CSV: kept as text
  }
  return { status: response.status, headers: response.headers, body, ms: performance.now() - started };
}

interface Session {
  cookie: string;
  csrf: string;
  accountId: string;
}

const signInAttempt = (email: string, password: string, from: string) =>
  consoleCall('POST', '/console/v1/session', { json: { email, password }, client: from });

async function signIn(email: string, from = client(6)): Promise<Session> {
  const answer = await signInAttempt(email, PASSWORD, from);
  expect(answer.status).toBe(201);
  return { cookie: answer.headers.get('set-cookie')!.split(';')[0], csrf: answer.body.csrf_token, accountId: answer.body.account_id };
}

/** The account's request log as the operator reads it (the console's own requests included). */
async function requestLog(accountId: string, query = ''): Promise<Array<Record<string, unknown>>> {
  const page = await admin(system, 'GET', `/admin/accounts/${accountId}/requests?environment=sandbox&limit=100${query}`);
  expect(page.status).toBe(200);
  return page.body.requests as Array<Record<string, unknown>>;
}

describe('console sign-in', () => {
  it("signs a user in with the right password while another client fails on the same email: others' failures delay, never lock", async () => {
    const email = `ana-${run}@loja.example`;
    await user(email);
    const guesser = client(1);
    for (let i = 0; i < 5; i++) expect((await signInAttempt(email, `wrong guess ${i}`, guesser)).status).toBe(401);
    // The guessing client is held back, on its own failures alone...
    const held = await signInAttempt(email, PASSWORD, guesser);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(800);
    // ...while the user, behind the same proxy but from their own address, signs in: after a delay, not refused.
    const mine = await signInAttempt(email, PASSWORD, client(2));
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ email, account_id: merchant.accountId });
    expect(mine.ms).toBeGreaterThanOrEqual(450);
    // And a wrong password from the user's address is still only answered wrong, not refused for the others' failures.
    expect((await signInAttempt(email, 'a typo of mine', client(2))).status).toBe(401);
  });

  it('refuses a client failing many emails, and nobody else behind the same proxy', async () => {
    const email = `bia-${run}@loja.example`;
    await user(email);
    const guesser = client(3);
    for (let i = 0; i < 20; i++) expect((await signInAttempt(`nobody-${i}-${run}@loja.example`, 'a guess', guesser)).status).toBe(401);
    const held = await signInAttempt(email, PASSWORD, guesser);
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await signInAttempt(email, PASSWORD, client(4))).status).toBe(201);
  });

  it('counts concurrent guesses before checking them: at most the bound are checked, the rest refused at once with Retry-After', async () => {
    const email = `caio-${run}@loja.example`;
    await user(email);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signInAttempt(email, `parallel guess ${i}`, client(5))));
    const statuses = answers.map((answer) => answer.status);
    // At most 5 checked as guesses (401); the rest refused without a check (429). A check the gateway's hash slots
    // were too busy to run (503) was no guess: it is taken back, and its place may go to another of the burst.
    const count = (wanted: number) => statuses.filter((status) => status === wanted).length;
    expect({ others: statuses.filter((status) => ![401, 429, 503].includes(status)), checked: count(401) <= 5 }).toEqual({ others: [], checked: true });
    expect(count(429)).toBeGreaterThanOrEqual(7 - count(503));
    expect(count(429)).toBeGreaterThan(0);
    for (const answer of answers.filter(({ status }) => status === 429 || status === 503)) expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('checks at most its slots of passwords at once at the gateway: a burst is answered at once, the excess 503 with Retry-After', async () => {
    const email = `davi-${run}@loja.example`;
    await user(email);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetch(`http://127.0.0.1:${system.profile.admin}/admin/console-users/verify`, {
          method: 'POST',
          headers: { authorization: 'Bearer e2e-admin-token', 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: `burst guess ${i}` }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.every((status) => status === 404 || status === 503)).toBe(true);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter(({ status }) => status === 503)) expect(answer.headers.get('retry-after')).toBe('1');
  });
});

describe("the console's way to the merchant API", () => {
  let owner: Session;
  beforeAll(async () => {
    await user(`owner-${run}@loja.example`);
    owner = await signIn(`owner-${run}@loja.example`);
  });

  /** One raw request line and headers on a loopback socket to the console: its status line and body. */
  const raw = (requestLine: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect(consolePort, '127.0.0.1');
      let answer = '';
      socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
      socket.write(`${requestLine}\r\nHost: 127.0.0.1:${consolePort}\r\nCookie: ${owner.cookie}\r\nConnection: close\r\n\r\n`);
    });

  it('refuses an absolute-form request line, and nothing reaches the merchant API but its routes', async () => {
    const prefix = '/console/v1/sandbox/api';
    // "http://" and 16 characters are as long as the prefix: cut at its length, the line would leave
    // "@evil.example/..." to append to the API's base URL, a host of its own with the console's key.
    for (const line of [
      `GET http://${'a'.repeat(16)}@evil.example${prefix}/v2/sandbox/clock HTTP/1.1`,
      `GET http://evil.example${prefix}/v2/sandbox/clock HTTP/1.1`,
    ]) {
      const answer = await raw(line);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('The request line must carry a path, not an address');
    }
    for (const line of [`GET ${prefix}/v2/pix/..%2f..%2fdocs HTTP/1.1`, `GET ${prefix}/v2/pix/%2e%2e/%2e%2e/docs HTTP/1.1`]) {
      const answer = await raw(line);
      expect(answer).toMatch(/^HTTP\/1\.1 (400|404) /);
      expect(answer).not.toContain('<html');
    }
    // A request the console does pass, after them: once it is in the log, every earlier one would be too.
    const marker = await consoleCall('GET', `${prefix}/v2/sandbox/clock`, { session: owner });
    expect(marker.status).toBe(200);
    const logged = await eventually(
      () => requestLog(owner.accountId),
      (requests) => requests.some((request) => request.path === '/v2/sandbox/clock'),
      { ...WITHIN_SECONDS, what: 'the marker request in the log' },
    );
    for (const request of logged)
      expect(String(request.path)).toMatch(/^\/v2\/(sandbox\/clock|limits|automatic-pix|pix|payout|withdrawals|webhooks|transactions)/);
  });

  it('no longer serves the API reference, or any route the console does not call, on its origin', async () => {
    for (const path of ['/docs', '/openapi.json', '/v2/sandbox/recurrences']) {
      const answer = await consoleCall('GET', `/console/v1/sandbox/api${path}`, { session: owner });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: 'Not found: the console passes to the merchant API only the routes its pages use' });
    }
  });

  it('refuses a change from another origin as such', async () => {
    const answer = await consoleCall('POST', '/console/v1/sandbox/api/v2/sandbox/clock/advance', {
      session: owner,
      json: { days: 0 },
      headers: { origin: 'http://shop.example' },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe("This request comes from another site: changes are accepted from the console's own pages only");
  });

  it("records which console user made a change, and believes no integration's claim to be one", async () => {
    const document = freshCpf();
    const body = { document_number: document, type: 'cashin', mechanism: 'quantity', quantity: 2 };
    const change = await consoleCall('POST', '/console/v1/sandbox/api/v2/limits', { session: owner, json: body });
    expect(change.status).toBe(200);
    // An integration naming a user itself, with its own key.
    const forged = await fetch(`http://127.0.0.1:${system.profile.sandbox}/v2/limits`, {
      method: 'POST',
      headers: { authorization: merchant.sandbox, 'content-type': 'application/json', 'x-console-user': `owner-${run}%40loja.example;forged` },
      body: JSON.stringify({ ...body, quantity: 3 }),
    });
    expect(forged.status).toBe(200);
    const posts = await eventually(
      () => requestLog(owner.accountId, '&method=POST&path=/v2/limits'),
      (requests) => requests.length >= 2,
      { ...WITHIN_SECONDS, what: 'both writes in the log' },
    );
    expect(posts).toHaveLength(2);
    expect(posts.map((request) => request.console_user)).toEqual(expect.arrayContaining([`owner-${run}@loja.example`, null]));
    // A read names nobody: the record is of changes.
    const reads = await requestLog(owner.accountId, '&method=GET&path=/v2/sandbox/clock');
    expect(reads.every((request) => request.console_user === null)).toBe(true);
  });

  it("passes the webhook endpoint routes, an endpoint's secret to owners alone, and names who saw it in the audit log", async () => {
    const prefix = '/console/v1/sandbox/api/v2/webhooks/endpoints';
    const created = await consoleCall('POST', prefix, { session: owner, json: { url: 'http://127.0.0.1:9/hook', event_types: ['pix_charge.paid'] } });
    expect(created.status).toBe(201);
    const id = created.body.endpoint_id as string;
    expect((await consoleCall('GET', `${prefix}/${id}/secret`, { session: owner })).body).toEqual({
      secret: created.body.secret,
      previous_secret_valid_until: null,
    });
    await user(`developer-${run}@loja.example`, 'developer');
    const developer = await signIn(`developer-${run}@loja.example`);
    expect((await consoleCall('GET', prefix, { session: developer })).body.endpoints.map((e: { endpoint_id: string }) => e.endpoint_id)).toContain(id);
    expect((await consoleCall('PATCH', `${prefix}/${id}`, { session: developer, json: { description: 'ERP' } })).status).toBe(200);
    const ownerOnly = { status: 403, body: { message: "Only an owner may reveal or rotate a webhook endpoint's signing secret" } };
    const refusedReveal = await consoleCall('GET', `${prefix}/${id}/secret`, { session: developer });
    const refusedRotate = await consoleCall('POST', `${prefix}/${id}/secret/rotate`, { session: developer, json: {} });
    expect([refusedReveal, refusedRotate].map(({ status, body }) => ({ status, body }))).toEqual([ownerOnly, ownerOnly]);
    expect((await consoleCall('DELETE', `${prefix}/${id}`, { session: developer })).status).toBe(204);
    const log = await admin(system, 'GET', `/admin/accounts/${owner.accountId}/audit-log`);
    const entries = log.body.entries.filter((e: { object: string }) => e.object === id);
    expect(entries.map((e: { action: string; actor: string }) => [e.action, e.actor])).toEqual([
      ['webhook_endpoint.deleted', `developer-${run}@loja.example`],
      ['webhook_endpoint.updated', `developer-${run}@loja.example`],
      ['webhook_endpoint.secret_revealed', `owner-${run}@loja.example`],
      ['webhook_endpoint.created', `owner-${run}@loja.example`],
    ]);
  });
});

describe('console emails, scoped to their account', () => {
  it("lets another account's owner add an address without learning of, or taking, the other account's user", async () => {
    const email = `shared-${run}@loja.example`;
    await user(email, 'developer');
    const other = await newMerchant(system);
    await user(`other-owner-${run}@outra.example`, 'owner', other.accountId);
    const otherOwner = await signIn(`other-owner-${run}@outra.example`, client(7));
    // Adding the address is answered as for any new address...
    const added = await consoleCall('POST', '/console/v1/users', { session: otherOwner, json: { email, role: 'viewer' } });
    expect(added.status).toBe(201);
    expect(added.body.user).toMatchObject({ email, account_id: other.accountId, role: 'viewer' });
    // ...the same address twice in one account is refused, in that account's words...
    const again = await consoleCall('POST', '/console/v1/users', { session: otherOwner, json: { email, role: 'viewer' } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('body.email already belongs to a console user of this account');
    // ...and the first account's user still signs in to their own account with their own password.
    const mine = await signInAttempt(email, PASSWORD, client(8));
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ account_id: merchant.accountId, role: 'developer' });
  });
});
