/** @shared-system */
import * as fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { shutdownDeadlineMs } from '@pixauto/runtime';
import { eventually, until } from '@pixauto/testing';
import { launch, printedJson, run, stopGroup } from './support/commands';
import { admin, freshCpf, Merchant, newMerchant } from './support/fixtures';
import { RunningSystem, sharedSystem } from './support/running-system';

// The SDK as a merchant gets it (libs/api-client/README.md): packed with `npm run sdk:pack`, installed from its tarball
// into a scratch project outside the repository (offline, from npm's cache: its dependencies are the monorepo's too),
// type-checked there, and driven through a sandbox journey by a script of that project.

/**
 * A merchant's project that depends on the tarball, with its lockfile: the SDK's dependencies pinned as the monorepo's
 * lockfile pins them, so that `npm ci --offline` takes them from npm's cache by their integrity.
 */
function writeProject(dir: string, tarball: string): void {
  const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, { version: string; resolved: string; integrity: string; dependencies?: Record<string, string> }>;
  };
  const sdk = JSON.parse(fs.readFileSync('libs/api-client/package.json', 'utf8')) as {
    version: string;
    bin: Record<string, string>;
    dependencies: Record<string, string>;
  };
  const dependencies = { '@pixauto/sdk': `file:${tarball}` };
  const packages: Record<string, unknown> = {
    '': { name: 'merchant-shop', dependencies },
    'node_modules/@pixauto/sdk': { version: sdk.version, resolved: `file:${tarball}`, bin: sdk.bin, dependencies: sdk.dependencies },
  };
  for (const wanted = Object.keys(sdk.dependencies); wanted.length > 0;) {
    const name = wanted.shift()!;
    const { version, resolved, integrity, dependencies: theirs = {} } = lock.packages[`node_modules/${name}`];
    packages[`node_modules/${name}`] = { version, resolved, integrity, dependencies: theirs };
    wanted.push(...Object.keys(theirs));
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'merchant-shop', private: true, dependencies }));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ name: 'merchant-shop', lockfileVersion: 3, requires: true, packages }));
}

let system: RunningSystem;
let merchant: Merchant;
let scratch: string;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  const packed = await run('npm run --silent sdk:pack', {}, 120_000);
  expect(packed).toMatchObject({ code: 0 });
  const tarball = path.resolve('.data/sdk', packed.output.trim().split('\n').pop()!.trim());
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pixauto-sdk-'));
  fs.copyFileSync(tarball, path.join(scratch, path.basename(tarball)));
  writeProject(scratch, path.basename(tarball));
  const installed = await run(`cd ${scratch} && npm ci --offline --no-audit --no-fund --ignore-scripts`, {}, 120_000);
  expect(installed).toMatchObject({ code: 0 });
}, 240_000);
afterAll(async () => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the SDK from its tarball', () => {
  it('ships compiled code and its types, and not the operator API', () => {
    const dist = path.join(scratch, 'node_modules/@pixauto/sdk/dist');
    expect(fs.existsSync(path.join(dist, 'index.js'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'index.d.ts'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'generated/sandbox.d.ts'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'generated/admin.d.ts'))).toBe(false);
    expect(fs.readFileSync(path.join(scratch, 'node_modules/@pixauto/sdk/README.md'), 'utf8')).toContain('verifyWebhook');
  });

  it("types the merchant's calls: a known route compiles, a misspelt field does not", async () => {
    fs.writeFileSync(
      path.join(scratch, 'typed.ts'),
      `import { pixauto } from '@pixauto/sdk';
const client = pixauto({ apiKey: 'pix_test_x', baseUrl: 'http://127.0.0.1:1' });
export async function typed(): Promise<number | undefined> {
  const { data } = await client.api.POST('/v2/pix', { body: { transaction_id: 'a', amount: 1, payer: { document_number: '52998224725', name: 'M' } } });
  // @ts-expect-error the field is \`amount\`
  await client.api.POST('/v2/pix', { body: { transaction_id: 'a', amout: 1, payer: { document_number: '52998224725', name: 'M' } } });
  return data?.id;
}
`,
    );
    // The compiler and Node's types are the monorepo's: a merchant's TypeScript project has its own.
    const tsc = path.resolve('node_modules/.bin/tsc');
    const checked = await run(
      `cd ${scratch} && ${tsc} --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --lib es2022,dom --typeRoots ${path.resolve('node_modules/@types')} --types node typed.ts`,
    );
    expect(checked).toEqual({ code: 0, output: '' });
  });

  it('runs a sandbox journey: Pix charges created with idempotency keys (a lost answer retried, made once), one paid, its webhook verified, the list iterated page by page', async () => {
    const secret = (await admin(system, 'GET', `/admin/accounts/${merchant.accountId}`)).body.sandbox_webhook_secret as string;
    fs.writeFileSync(
      path.join(scratch, 'journey.js'),
      `const http = require('node:http');
const { pixauto, verifyWebhook } = require('@pixauto/sdk');
const { SANDBOX_URL, API_KEY, WEBHOOK_SECRET, PAYER } = process.env;

async function main() {
  const events = [];
  let forged = 0;
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      try {
        events.push(verifyWebhook(WEBHOOK_SECRET, body, request.headers));
      } catch {
        forged++;
      }
      response.writeHead(200).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhook = 'http://127.0.0.1:' + receiver.address().port + '/pix';

  // The first answer is lost on its way back (a 503 in its place, as a proxy would say): the SDK sends the same POST
  // again, with the same Idempotency-Key, and the API answers it from the first without making a second charge.
  const sent = [];
  const lossy = async (request) => {
    const response = await fetch(request);
    sent.push({ method: request.method, key: request.headers.get('idempotency-key'), replayed: response.headers.get('idempotent-replayed') });
    if (sent.length > 1) return response;
    await response.arrayBuffer();
    return new Response(JSON.stringify({ message: 'lost' }), { status: 503, headers: { 'retry-after': '0' } });
  };
  const client = pixauto({ apiKey: API_KEY, baseUrl: SANDBOX_URL, fetch: lossy });
  const start = new Date(Date.now() - 3600000).toISOString();
  const end = new Date(Date.now() + 3600000).toISOString();
  const created = [];
  for (const amount of [10, 11, 12]) {
    const { data, error } = await client.api.POST('/v2/pix', {
      body: { transaction_id: 'sdk-' + Date.now() + '-' + amount, amount, payer: { document_number: PAYER, name: 'Maria Silva' }, webhook },
    });
    if (!data) throw new Error(JSON.stringify(error));
    created.push(data.id);
  }
  const paid = await client.api.POST('/v2/sandbox/pix/{id}/pay', { params: { path: { id: created[0] } } });
  const listed = [];
  for await (const charge of client.pixCharges({ start, end, page_size: 1 })) listed.push(charge.id);
  let refused;
  try {
    for await (const charge of client.pixCharges({ start: 'yesterday', end })) void charge;
  } catch (error) {
    refused = { name: error.name, status: error.status, message: error.message };
  }
  for (let waited = 0; !events.some((event) => event.type === 'pix_charge.paid') && waited < 60000; waited += 200) await new Promise((r) => setTimeout(r, 200));
  receiver.close();
  console.log(JSON.stringify({ created, sent: sent.slice(0, 4), paid: paid.data && paid.data.status, listed, refused, events: events.map((e) => ({ type: e.type, id: e.data.id })), forged }));
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`,
    );
    const journey = await run(
      `cd ${scratch} && node journey.js`,
      {
        SANDBOX_URL: `http://127.0.0.1:${system.profile.sandbox}`,
        API_KEY: merchant.sandbox,
        WEBHOOK_SECRET: secret,
        PAYER: freshCpf(),
      },
      120_000,
    );
    expect(journey.code).toBe(0);
    const outcome = printedJson(journey.output) as {
      created: number[];
      sent: { method: string; key: string | null; replayed: string | null }[];
      paid: string;
      listed: number[];
      refused: unknown;
      events: unknown[];
      forged: number;
    };
    const [first, retry, second, third] = outcome.sent;
    expect(first).toEqual({ method: 'POST', key: expect.stringMatching(/^[0-9a-f-]{36}$/), replayed: null });
    expect(retry).toEqual({ method: 'POST', key: first.key, replayed: 'true' });
    expect(new Set([first.key, second.key, third.key]).size).toBe(3);
    expect(outcome.paid).toBe('PAID');
    expect([...outcome.listed].sort()).toEqual([...outcome.created].sort());
    expect(outcome.refused).toMatchObject({ name: 'PixautoError', status: 400 });
    expect(outcome.events).toContainEqual({ type: 'pix_charge.paid', id: outcome.created[0] });
    expect(outcome.forged).toBe(0);
  });
});

describe('the pixauto command line from the tarball', () => {
  let cliMerchant: Merchant;
  /** The scratch project's own `pixauto`, its login kept in the scratch folder, not the user's home. */
  const pixauto = (args: string, env: NodeJS.ProcessEnv = {}) =>
    run(`cd ${scratch} && node_modules/.bin/pixauto ${args}`, { PIXAUTO_CONFIG: path.join(scratch, 'config', 'pixauto.json'), ...env }, 120_000);
  const sandboxUrl = () => `http://127.0.0.1:${system.profile.sandbox}`;

  beforeAll(async () => {
    cliMerchant = await newMerchant(system);
  });

  it('logs in with a sandbox key only, kept in a file only its user reads', async () => {
    const production = await pixauto(`login --api-key ${cliMerchant.production} --base-url ${sandboxUrl()}`);
    expect(production).toMatchObject({ code: 1, output: expect.stringContaining('pixauto login takes a sandbox key (pix_test_...)') });
    const unknown = await pixauto(`login --api-key pix_test_not-a-key-of-ours --base-url ${sandboxUrl()}`);
    expect(unknown).toMatchObject({ code: 1, output: expect.stringContaining('refused the key (401)') });
    expect(fs.existsSync(path.join(scratch, 'config', 'pixauto.json'))).toBe(false);

    const login = await pixauto(`login --api-key ${cliMerchant.sandbox} --base-url ${sandboxUrl()}`);
    expect(login).toMatchObject({ code: 0, output: expect.stringContaining(`logged in to the sandbox at ${sandboxUrl()}`) });
    const file = path.join(scratch, 'config', 'pixauto.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ api_key: cliMerchant.sandbox, base_url: sandboxUrl() });
  });

  it('triggers each event it knows through a real sandbox flow, and names them for one it does not', async () => {
    const expected: Record<string, Record<string, unknown>> = {
      'recurrence.created': { status: 'CREATED' },
      'recurrence.updated': { status: 'CREATED', debtor: expect.objectContaining({ name: 'Maria S. Silva' }) },
      'recurrence.approved': { status: 'APPROVED' },
      'recurrence.rejected': { status: 'REJECTED' },
      'recurrence.cancelled': { status: 'CANCELLED' },
      'charge.created': { charge_id: expect.any(String) },
      'charge.paid': { status: 'PAID' },
      'charge.failed': { status: 'FAILED' },
      'pix_charge.created': { status: 'PENDING' },
      'pix_charge.paid': { status: 'PAID' },
      'pix_charge.expired': { status: 'EXPIRED' },
      'pix_charge.refund_requested': { status: 'PROCESSING' },
      'pix_charge.refunded': { status: 'REFUNDED' },
      'payout.created': { status: 0 },
      'payout.status_changed': { status: 1 },
      'payout.returned': { id: expect.any(Number) },
    };
    for (const [eventType, made] of Object.entries(expected)) {
      const triggered = await pixauto(`trigger ${eventType}`);
      expect({ eventType, code: triggered.code }).toEqual({ eventType, code: 0 });
      expect(printedJson(triggered.output)).toEqual({ triggered: eventType, made: expect.objectContaining(made) });
    }
    const unknown = await pixauto('trigger dispute.opened');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('pixauto trigger makes these events: recurrence.created, ');
  }, 300_000);

  it("tails the account's requests as they happen: a new one printed, those before it and its own reads left out", async () => {
    const before = await fetch(`${sandboxUrl()}/v2/pix?id=999000001`, { headers: { authorization: cliMerchant.sandbox } });
    expect(before.status).toBe(404);
    // In the log before the tail starts (a line is written within about a second): what the tail finds there is history.
    await eventually(
      () =>
        fetch(`${sandboxUrl()}/v2/requests?path=/v2/pix%3Fid%3D999000001`, { headers: { authorization: cliMerchant.sandbox } }).then(
          (answer) => answer.json() as Promise<{ requests: unknown[] }>,
        ),
      (page: { requests: unknown[] }) => page.requests.length === 1,
      { timeoutMs: 10_000, intervalMs: 200, what: 'the earlier request in the log' },
    );
    // The key from the environment, as a CI job would pass it, over any login.
    const tail = launch(`cd ${scratch} && node_modules/.bin/pixauto logs tail`, {
      PIXAUTO_CONFIG: path.join(scratch, 'nowhere.json'),
      PIXAUTO_API_KEY: cliMerchant.sandbox,
      PIXAUTO_BASE_URL: sandboxUrl(),
    });
    try {
      await until(() => tail.output().includes('tailing your sandbox requests'), { timeoutMs: 30_000, what: 'the tail started' });
      await new Promise((resolve) => setTimeout(resolve, 2500)); // its first page read: what was there is history
      const after = await fetch(`${sandboxUrl()}/v2/pix?id=999000002`, { headers: { authorization: cliMerchant.sandbox } });
      expect(after.status).toBe(404);
      await until(() => tail.output().includes('/v2/pix?id=999000002'), { timeoutMs: 30_000, what: 'the new request printed' });
      expect(tail.output()).toMatch(/GET +404 +[\d.]+ ms {2}\/v2\/pix\?id=999000002 {2}\S+/);
      expect(tail.output()).not.toContain('999000001');
      expect(tail.output()).not.toContain('/v2/requests');
    } finally {
      await stopGroup(tail.child, 'SIGINT');
    }
  });
});

/** Another secret of the listen secret's form, for a signature that must not verify. */
const newSecret = () => `whsec_${Buffer.from('another secret of 32 bytes!!!!!!').toString('base64')}`;

describe('pixauto listen, over GET /v2/sandbox/events', () => {
  let listener: Merchant;
  const sandboxUrl = () => `http://127.0.0.1:${system.profile.sandbox}`;

  beforeAll(async () => {
    listener = await newMerchant(system);
  });

  it('forwards a triggered event to a loopback receiver, signed with the listen secret it printed, with no webhook URL anywhere', async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ headers: request.headers as Record<string, string>, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const forwardTo = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const env = { PIXAUTO_CONFIG: path.join(scratch, 'listen', 'pixauto.json') };
    expect((await run(`cd ${scratch} && node_modules/.bin/pixauto login --api-key ${listener.sandbox} --base-url ${sandboxUrl()}`, env)).code).toBe(0);
    const listening = launch(`cd ${scratch} && node_modules/.bin/pixauto listen --forward-to ${forwardTo}`, env);
    try {
      await until(() => listening.output().includes('ready: forwarding'), { timeoutMs: 30_000, what: 'the listen stream open' });
      const secret = /your listen signing secret is (whsec_\S+)/.exec(listening.output())?.[1] as string;
      expect(JSON.parse(fs.readFileSync(env.PIXAUTO_CONFIG, 'utf8')).listen_secret).toBe(secret);

      const triggered = await run(`cd ${scratch} && node_modules/.bin/pixauto trigger pix_charge.paid`, env, 120_000);
      const { id } = printedJson(triggered.output).made as { id: number };
      await until(() => received.some((r) => r.body.includes('"pix_charge.paid"')), { timeoutMs: 30_000, what: 'pix_charge.paid forwarded' });
      const events = received.map((r) => new Webhook(secret).verify(r.body, r.headers) as { type: string; environment: string; data: { id: number } });
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: 'pix_charge.created', environment: 'sandbox', data: expect.objectContaining({ id, status: 'PENDING' }) }),
          expect.objectContaining({ type: 'pix_charge.paid', environment: 'sandbox', data: expect.objectContaining({ id, status: 'PAID' }) }),
        ]),
      );
      expect(() => new Webhook(newSecret()).verify(received[0].body, received[0].headers)).toThrow();
      await until(() => listening.output().includes(`pix_charge.paid  `), { timeoutMs: 10_000, what: 'the forward printed' });
      expect(listening.output()).toMatch(new RegExp(`pix_charge\\.paid {2}msg_\\w+ {2}-> ${forwardTo.replace(/[./]/g, '\\$&')} \\[204\\]`));
    } finally {
      await stopGroup(listening.child, 'SIGINT');
      receiver.close();
    }
  }, 180_000);

  it('holds five streams of an account at once; a sixth is refused with Retry-After, and another account is not', async () => {
    const open = (key: string) => fetch(`${sandboxUrl()}/v2/sandbox/events`, { headers: { authorization: key } });
    const streams = await Promise.all([1, 2, 3, 4, 5].map(() => open(listener.sandbox)));
    try {
      expect(streams.map((stream) => [stream.status, stream.headers.get('content-type')])).toEqual(Array(5).fill([200, 'text/event-stream']));
      const sixth = await open(listener.sandbox);
      expect({ status: sixth.status, retryAfter: sixth.headers.get('retry-after'), body: await sixth.json() }).toEqual({
        status: 429,
        retryAfter: '5',
        body: {
          message: 'Too many listeners at once: this account may hold 5 event streams at a time; retry after the Retry-After seconds, once one has closed',
        },
      });
      const other = await open((await newMerchant(system)).sandbox);
      expect(other.status).toBe(200);
      await other.body?.cancel();
      expect((await fetch(`http://127.0.0.1:${system.profile.gateway}/v2/sandbox/events`, { headers: { authorization: listener.production } })).status).toBe(
        404,
      );
    } finally {
      await Promise.all(streams.map((stream) => stream.body?.cancel()));
    }
    // A closed stream frees its place.
    await eventually(
      () => open(listener.sandbox),
      (again) => {
        void again.body?.cancel();
        return again.status === 200;
      },
      { timeoutMs: 10_000, intervalMs: 200, what: 'a place freed' },
    );
  });

  it('ends an open stream when the gateway shuts down, so that it exits 0 in its usual time; the stream opens again once it is back', async () => {
    const stream = await fetch(`${sandboxUrl()}/v2/sandbox/events`, { headers: { authorization: listener.sandbox } });
    expect(stream.status).toBe(200);
    const read = (async () => {
      for await (const chunk of stream.body as ReadableStream<Uint8Array>) void chunk;
      return 'ended';
    })().catch(() => 'cut');
    const { exitCode, ms } = await system.terminate('api-gateway');
    expect({ exitCode, withinDeadline: ms < shutdownDeadlineMs(1000) }).toEqual({ exitCode: 0, withinDeadline: true });
    expect(await read).toBe('ended');
    await system.restart('api-gateway');
    const again = await fetch(`${sandboxUrl()}/v2/sandbox/events`, { headers: { authorization: listener.sandbox } });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });
});
