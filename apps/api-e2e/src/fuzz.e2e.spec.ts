/** @shared-system */
import fc from 'fast-check';
import { queryService } from './support/database';
import { Merchant, newMerchant } from './support/fixtures';
import { RunningSystem, sharedSystem } from './support/running-system';

// Hostile input (docs/decisions/requests.md): generated bodies, queries and ids for every route of the sandbox
// listener (it serves them all).
// Whatever comes, the answer is never a 5xx, every refusal says why, and a refused request leaves nothing behind:
// no event in any service's store.

let system: RunningSystem;
let merchant: Merchant;
/** The second property's merchant: its near-valid requests may create things, so the first one's count stays clean. */
let other: Merchant;

beforeAll(async () => {
  system = sharedSystem();
  merchant = await newMerchant(system);
  other = await newMerchant(system);
});

type Method = 'GET' | 'POST' | 'PATCH';
/** Every merchant route; `:x` stands for a generated path parameter. */
const ROUTES: [Method, string][] = [
  ['POST', '/v2/automatic-pix/recurrences'],
  ['GET', '/v2/automatic-pix/recurrences'],
  ['GET', '/v2/automatic-pix/recurrences/:x'],
  ['PATCH', '/v2/automatic-pix/recurrences/:x'],
  ['GET', '/v2/automatic-pix/recurrences/:x/charges'],
  ['GET', '/v2/automatic-pix/charges/:x'],
  ['PATCH', '/v2/automatic-pix/charges/:x'],
  ['POST', '/v2/automatic-pix/charges/:x/reschedule'],
  ['POST', '/v2/automatic-pix/charges/:x/retry'],
  ['POST', '/v2/automatic-pix/solicitations'],
  ['GET', '/v2/automatic-pix/solicitations/:x'],
  ['PATCH', '/v2/automatic-pix/solicitations/:x'],
  ['POST', '/v2/limits'],
  ['GET', '/v2/limits'],
  ['POST', '/v2/pix'],
  ['GET', '/v2/pix'],
  ['POST', '/v2/payout/pix'],
  ['POST', '/v2/payout'],
  ['POST', '/v2/transactions/refund'],
  ['GET', '/v2/transactions/refund/receipt'],
  ['GET', '/v2/withdrawals'],
  ['GET', '/v2/withdrawals/period'],
  ['GET', '/v2/withdrawals/customer'],
  ['GET', '/v2/withdrawals/refund/receipt'],
  ['GET', '/v2/withdrawals/receipt'],
  ['GET', '/v2/withdrawals/period/csv'],
  ['GET', '/v2/webhooks/deliveries'],
  ['GET', '/v2/webhooks/deliveries/:x'],
  ['POST', '/v2/webhooks/deliveries/:x/retry'],
  ['POST', '/v2/webhooks/deliveries/retry'],
  ['POST', '/v2/webhooks/test-events'],
  ['POST', '/v2/sandbox/recurrences/:x/authorize'],
  ['POST', '/v2/sandbox/recurrences/:x/reject'],
  ['POST', '/v2/sandbox/solicitations/:x/answer'],
  ['POST', '/v2/sandbox/charges/:x/pay'],
  ['POST', '/v2/sandbox/charges/:x/fail'],
  ['POST', '/v2/sandbox/pix/:x/pay'],
  ['POST', '/v2/sandbox/payouts/:x/status'],
  ['POST', '/v2/sandbox/payouts/:x/return'],
  ['POST', '/v2/sandbox/transactions/:x/refund'],
  ['POST', '/v2/sandbox/refunds/:x/settle'],
  ['GET', '/v2/sandbox/clock'],
  ['POST', '/v2/sandbox/clock/advance'],
  ['POST', '/v2/cobv'],
  ['GET', '/v2/cobv'],
  ['GET', '/v2/cobv/charges'],
  ['PATCH', '/v2/cobv/:x'],
  ['POST', '/v2/sandbox/cobv/:x/pay'],
  ['GET', '/v2/disputes'],
  ['GET', '/v2/disputes/:x'],
  ['GET', '/v2/disputes/:x/evidence/1'],
  ['POST', '/v2/disputes/:x/defence'],
  ['POST', '/v2/sandbox/transactions/:x/dispute'],
  ['POST', '/v2/webhooks/endpoints'],
  ['GET', '/v2/webhooks/endpoints'],
  ['GET', '/v2/webhooks/endpoints/:x'],
  ['PATCH', '/v2/webhooks/endpoints/:x'],
  ['GET', '/v2/webhooks/endpoints/:x/secret'],
  ['POST', '/v2/webhooks/endpoints/:x/secret/rotate'],
  ['POST', '/v2/webhooks/endpoints/:x/test'],
  ['GET', '/v2/reports/daily-totals'],
];

/** Field names of the spec, so that generated bodies and queries get past "unknown field" into each rule. */
const FIELDS = [
  'transaction_id',
  'amount',
  'debtor',
  'document_number',
  'name',
  'schedule',
  'start_date',
  'end_date',
  'periodicity',
  'retry_policy',
  'webhook',
  'type',
  'mechanism',
  'quantity',
  'details',
  'payer',
  'pix_key',
  'refund_id',
  'id',
  'status',
  'start',
  'end',
  'page',
  'page_size',
  'size',
  'event_type',
  'resource_id',
  'journey',
  'activation_amount',
  'bank',
  'account_number',
  'due_date',
  'reason',
  'approved',
  'expires_in',
  'description',
  'business_day_adjust',
  'url',
  'event_types',
  'enabled',
  'days_valid_after_due',
  'fine',
  'interest',
  'discount',
  'abatement',
  'modality',
  'value',
  'fixed_dates',
  'text',
  'evidence',
  'outcome',
  'defence_days',
  'conclude_after_days',
];

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }), // lone surrogates, NUL and the rest of Unicode
  fc.constantFrom('', ' ', '0', '-1', '1e309', '99999999999999999999', '2026-02-30', '2026-13-01 25:61:61', '52998224725', 'null', 'PROVIDER_A'),
);
const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }),
  fc.dictionary(fc.constantFrom(...FIELDS), fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 4 }), { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.string().map((raw) => ({ raw })), // not JSON at all
);
const query = fc.dictionary(fc.constantFrom(...FIELDS), text, { maxKeys: 5 });
const request = fc.record({ route: fc.constantFrom(...ROUTES), param: text, body, query });

/** The merchant's events in every service's store: a refused request must not add one. */
async function eventCount(): Promise<number> {
  const services = ['limits', 'recurrence', 'solicitation', 'payments', 'gateway'];
  const sql = 'SELECT count(*) AS n FROM events WHERE account_id = $1';
  const counts = await Promise.all(
    services.map(async (service) => Number((await queryService(system.profile.databasePrefix, service, sql, [merchant.accountId]))[0].n)),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

/** Sends one request on the sandbox listener; what it answered, and how to name it in a failure. */
async function send(key: string, method: Method, path: string, query: Record<string, string>, raw?: string) {
  const search = new URLSearchParams(query).toString();
  const url = `http://127.0.0.1:${system.profile.sandbox}${path}${search ? `?${search}` : ''}`;
  const response = await fetch(url, { method, headers: { authorization: key, ...(raw !== undefined && { 'content-type': 'application/json' }) }, body: raw });
  return { status: response.status, text: await response.text(), where: `${method} ${url} ${raw ?? ''}` };
}

/** Never a 5xx; a refusal says why. */
function expectAnswered(answer: { status: number; text: string; where: string }): void {
  const { where } = answer;
  expect({ where, status: answer.status < 500 }).toEqual({ where, status: true });
  if (answer.status < 400) return;
  const parsed = JSON.parse(answer.text) as { message?: unknown };
  expect({ where, message: typeof parsed.message === 'string' && parsed.message.length > 0 }).toEqual({ where, message: true });
}

it('answers generated requests on every route without a 5xx, every refusal with its reason, and records nothing for them', async () => {
  const before = await eventCount();
  const accepted: string[] = [];
  await fc.assert(
    fc.asyncProperty(request, async ({ route: [method, template], param, body: generated, query: q }) => {
      const path = template.replace(':x', encodeURIComponent(param) || '%20');
      const raw =
        typeof generated === 'object' && generated !== null && 'raw' in generated && Object.keys(generated).length === 1
          ? String(generated.raw)
          : JSON.stringify(generated);
      const answer = await send(merchant.sandbox, method, path, q, method === 'GET' ? undefined : raw);
      expectAnswered(answer);
      if (answer.status < 400 && method !== 'GET') accepted.push(answer.where);
    }),
    { numRuns: 800 },
  );
  // A generated write that happened to be valid may record events; none did, or the count must not have moved.
  if (accepted.length === 0) expect(await eventCount()).toBe(before);
}, 300_000);

/** Valid requests of the creating routes, each field then kept, dropped or replaced by a generated value. */
const tomorrow = new Date(Date.now() - 3 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
const TEMPLATES: [string, Record<string, unknown>][] = [
  [
    '/v2/automatic-pix/recurrences',
    {
      transaction_id: 'fz',
      debtor: { document_number: '52998224725', name: 'Maria' },
      schedule: { start_date: tomorrow, periodicity: 'MONTHLY' },
      amount: 10.5,
      retry_policy: 'NOT_ALLOWED',
    },
  ],
  ['/v2/limits', { document_number: '52998224725', type: 'cashin', mechanism: 'amount', amount: 100, details: 'x' }],
  ['/v2/pix', { transaction_id: 'fz', amount: 12.5, payer: { document_number: '52998224725', name: 'Maria' } }],
  [
    '/v2/cobv',
    {
      transaction_id: 'fz',
      amount: 150,
      due_date: tomorrow,
      days_valid_after_due: 30,
      payer: { document_number: '12ABC34501DE35', name: 'Loja Alfa Ltda' },
      fine: { modality: 'PERCENTAGE', value: 2 },
      interest: { modality: 'PERCENT_PER_MONTH_CALENDAR_DAYS', value: 1 },
      discount: { modality: 'FIXED_AMOUNT_UNTIL_DATE', fixed_dates: [{ date: tomorrow, value: 10 }] },
    },
  ],
  ['/v2/payout/pix', { transaction_id: 'fz', amount: 10.9, name: 'Maria', document_number: '52998224725', pix_key: 'maria@example.com' }],
  ['/v2/transactions/refund', { transaction_id: 'fz', refund_id: 'fz', amount: 1 }],
  // a loopback port nothing listens on: an accepted test event's attempts fail there
  ['/v2/webhooks/test-events', { event_type: 'payout.status_changed', url: 'http://127.0.0.1:9/hook' }],
];
/** Each field mostly kept, at times replaced by a generated value or dropped; objects mutated field by field. */
const objectOf = (template: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(
      ...Object.entries(template).map(([key, field]) =>
        fc.oneof({ weight: 5, arbitrary: fieldOf(field).map((v) => [key, v] as const) }, { weight: 1, arbitrary: fc.constant(undefined) }),
      ),
    )
    .map((entries) => Object.fromEntries(entries.filter((entry) => entry !== undefined)));
const fieldOf = (field: unknown): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: field !== null && typeof field === 'object' ? objectOf(field as Record<string, unknown>) : fc.constant(field) },
    { weight: 1, arbitrary: value },
  );
const mutated = fc
  .constantFrom(...TEMPLATES)
  .chain(([path, template]) => fc.record({ path: fc.constant(path), body: objectOf(template), id: fc.string({ minLength: 1, maxLength: 20 }) }));

it('answers near-valid requests of the creating routes without a 5xx, every refusal with its reason', async () => {
  await fc.assert(
    fc.asyncProperty(mutated, async ({ path, body: generated, id }) => {
      // A fresh transaction_id where the template has one, so an accepted create is not refused as a repeat.
      const json = generated.transaction_id === 'fz' ? { ...generated, transaction_id: `fz${id}` } : generated;
      expectAnswered(await send(other.sandbox, 'POST', path, {}, JSON.stringify(json)));
    }),
    { numRuns: 600 },
  );
}, 300_000);
