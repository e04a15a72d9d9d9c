/** @shared-system */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { sandboxClient } from '@pixauto/api-client';
import { Merchant, newMerchant } from './support/fixtures';
import { ADMIN_TOKEN, RunningSystem, sharedSystem } from './support/running-system';

// The API documents' contract test (docs/architecture.md#the-api-documents): the running gateway serves each
// listener's document and reference page without a key, and each documented request example, replayed through it
// with a real key, gets one of its documented answers, whose body the documented schema accepts.

type Listener = 'production' | 'sandbox' | 'admin';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document, walked as JSON
type Json = any;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const documentOf = (listener: Listener): Json => JSON.parse(readFileSync(join(__dirname, `../../../libs/api-client/openapi/${listener}.json`), 'utf8'));

let system: RunningSystem;
let merchant: Merchant;
beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system); // through the typed admin client (support/fixtures.ts)
});

/** The documented examples without an id in their path whose answer is 404: lookups of data that does not exist, and a solicitation for the examples' recurrence id. */
const expected404: Record<Listener, string[]> = {
  production: [
    'POST /v2/automatic-pix/solicitations → 404',
    'GET /v2/limits → 404',
    'GET /v2/pix → 404',
    'GET /v2/cobv → 404',
    'GET /v2/withdrawals → 404',
    'GET /v2/withdrawals/customer → 404',
    'GET /v2/withdrawals/refund/receipt → 404',
    'GET /v2/withdrawals/receipt → 404',
    'GET /v2/transactions/refund/receipt → 404',
  ],
  sandbox: [
    'POST /v2/automatic-pix/solicitations → 404',
    'GET /v2/limits → 404',
    'GET /v2/pix → 404',
    'GET /v2/cobv → 404',
    'GET /v2/withdrawals → 404',
    'GET /v2/withdrawals/customer → 404',
    'GET /v2/withdrawals/refund/receipt → 404',
    'GET /v2/withdrawals/receipt → 404',
    'GET /v2/transactions/refund/receipt → 404',
  ],
  // The example's console user and sign-in link do not exist here: the documented answers for an unknown email (as for a
  // wrong password) and for an unknown link (as for a used or expired one).
  admin: ['POST /admin/console-users/verify → 404', 'POST /admin/console-users/sign-in-link → 404', 'POST /admin/console-users/sign-in-link/check → 404'],
};

/** The first bytes of a streamed answer, then the stream closed. */
async function firstChunkOf(answer: Response): Promise<string> {
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

const portOf = (listener: Listener) => ({ production: system.profile.gateway, sandbox: system.profile.sandbox, admin: system.profile.admin })[listener];
const authorizationOf = (listener: Listener) => ({ production: merchant.production, sandbox: merchant.sandbox, admin: `Bearer ${ADMIN_TOKEN}` })[listener];

describe.each([['production'], ['sandbox'], ['admin']] as Array<[Listener]>)('the %s listener', (listener) => {
  it('serves the committed document at /openapi.json and the reference page at /docs, with its assets, without an API key', async () => {
    const base = `http://127.0.0.1:${portOf(listener)}`;
    const document = await fetch(`${base}/openapi.json`);
    expect(document.status).toBe(200);
    expect(await document.json()).toEqual(documentOf(listener));
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => new URL(m[1], `${base}/docs`).href);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) expect({ asset, status: (await fetch(asset)).status }).toEqual({ asset, status: 200 });
    // and the API itself still wants its key
    if (listener !== 'admin') expect((await fetch(`${base}/v2/limits?document_number=11144477735&type=cashin`)).status).toBe(401);
  });

  it('answers each documented request example with a documented status and a body its schema accepts', async () => {
    const document = documentOf(listener);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: document.components });
    const outcomes: string[] = [];
    for (const [path, item] of Object.entries<Json>(document.paths)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const operation = item[method];
        const parameters: Json[] = operation.parameters ?? [];
        let url = path;
        const query = new URLSearchParams();
        for (const parameter of parameters) {
          const example = parameter.examples?.example?.value;
          if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(example));
          else if (parameter.in === 'query' && example !== undefined) query.set(parameter.name, example);
        }
        const example = operation.requestBody?.content?.['application/json']?.examples?.example?.value;
        const where = `${method.toUpperCase()} ${url}${query.size ? `?${query}` : ''}`;
        const answer = await fetch(`http://127.0.0.1:${portOf(listener)}${url}${query.size ? `?${query}` : ''}`, {
          method: method.toUpperCase(),
          headers: { authorization: authorizationOf(listener), ...(example !== undefined && { 'content-type': 'application/json' }) },
          body: example === undefined ? undefined : JSON.stringify(example),
        });
        const status = String(answer.status);
        // An event stream never ends by itself: its headers are the answer, its first bytes the stream's opening comment.
        const streaming = answer.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
        const text = streaming ? await firstChunkOf(answer) : await answer.text();
        outcomes.push(`${method.toUpperCase()} ${path} → ${status}`);
        const documented = operation.responses[status];
        expect({ where, status, documented: documented !== undefined, body: documented ? undefined : text }).toEqual({
          where,
          status,
          documented: true,
          body: undefined,
        });
        const content = documented.content ?? {};
        if (content['application/json']) {
          expect({ where, contentType: answer.headers.get('content-type') }).toEqual({ where, contentType: expect.stringMatching(/^application\/json/) });
          const validate = ajv.compile({ $ref: `doc${content['application/json'].schema.$ref}` });
          const body = JSON.parse(text);
          expect({ where, status, body, errors: validate(body) ? null : validate.errors }).toEqual({ where, status, body, errors: null });
        } else if (content['text/csv']) {
          expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
        } else if (content['text/event-stream']) {
          expect({ where, streaming, text }).toEqual({ where, streaming: true, text: expect.stringMatching(/^: /) });
        } else {
          expect({ where, text }).toEqual({ where, text: '' });
        }
      }
    }
    // the examples are real requests: the creates among them succeed on a new account
    const succeeded = outcomes.filter((outcome) => / → 2\d\d$/.test(outcome));
    // and the others reach the resource or the rules they name, not a route or parameter miss
    expect(outcomes.filter((outcome) => outcome.endsWith('→ 404') && !/\{\w+\}/.test(outcome)).sort()).toEqual([...expected404[listener]].sort());
    const expected = {
      production: [
        'POST /v2/limits → 200',
        'POST /v2/automatic-pix/recurrences → 201',
        'POST /v2/pix → 201',
        'POST /v2/cobv → 201',
        'POST /v2/payout/pix → 201',
        'POST /v2/payout → 201',
        'GET /v2/webhooks/deliveries → 200',
        'POST /v2/webhooks/deliveries/retry → 202',
      ],
      sandbox: [
        'POST /v2/limits → 200',
        'POST /v2/automatic-pix/recurrences → 201',
        'POST /v2/pix → 201',
        'POST /v2/cobv → 201',
        'GET /v2/sandbox/clock → 200',
        'POST /v2/sandbox/clock/advance → 200',
        'GET /v2/sandbox/events → 200',
        'POST /v2/webhooks/deliveries/retry → 202',
        // a loopback URL: a sandbox webhook may be one (WEBHOOK_ALLOW_LOOPBACK), a production one may not (its documented 400)
        'POST /v2/webhooks/test-events → 202',
      ],
      admin: ['POST /admin/accounts → 201'],
    }[listener];
    expect(succeeded).toEqual(expect.arrayContaining(expected));
  });
});

describe('the typed client (libs/api-client)', () => {
  it('creates a recurrence, reads it back and lists its charges on the sandbox, checked by the compiler against the document', async () => {
    const client = sandboxClient(`http://127.0.0.1:${system.profile.sandbox}`, merchant.sandbox);
    const created = await client.POST('/v2/automatic-pix/recurrences', {
      body: {
        transaction_id: `rec-client-${merchant.accountId.slice(0, 8)}`,
        debtor: { document_number: '52998224725', name: 'Maria Souza' },
        schedule: { start_date: '2099-02-10', periodicity: 'MONTHLY' },
        amount: 12.34,
        retry_policy: 'NOT_ALLOWED',
      },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.recurrence_id;
    const read = await client.GET('/v2/automatic-pix/recurrences/{recurrence_id}', { params: { path: { recurrence_id: id } } });
    expect(read.data).toMatchObject({ recurrence_id: id, amount: 12.34, status: 'CREATED' });
    const missing = await client.GET('/v2/automatic-pix/charges/{charge_id}', { params: { path: { charge_id: 'no-such-charge' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ message: 'Charge not found' });
  });
});
