import { Merchant } from './fixtures';
import { Answer, call } from './http';
import { RunningSystem } from './running-system';

// Helpers of the charge and test-clock suites (docs/decisions/charges.md, docs/decisions/sandbox-clock.md).

export const CHARGE_NOT_FOUND = { status: 404, body: { message: 'Charge not found' } };

export interface ChargeClient {
  list(recurrenceId: string): Promise<Answer>;
  get(chargeId: string): Promise<Answer>;
  cancel(chargeId: string, json?: unknown): Promise<Answer>;
  reschedule(chargeId: string, json?: unknown): Promise<Answer>;
  retry(chargeId: string, json?: unknown): Promise<Answer>;
  pay(chargeId: string): Promise<Answer>;
  fail(chargeId: string): Promise<Answer>;
  clock(): Promise<Answer>;
  advance(json: unknown): Promise<Answer>;
}

export function chargeClient(system: RunningSystem, merchant: Merchant, environment: 'production' | 'sandbox' = 'sandbox'): ChargeClient {
  const port = environment === 'production' ? system.profile.gateway : system.profile.sandbox;
  const key = environment === 'production' ? merchant.production : merchant.sandbox;
  const id = encodeURIComponent;
  return {
    list: (recurrenceId) => call(port, 'GET', `/v2/automatic-pix/recurrences/${id(recurrenceId)}/charges`, { key }),
    get: (chargeId) => call(port, 'GET', `/v2/automatic-pix/charges/${id(chargeId)}`, { key }),
    cancel: (chargeId, json = { status: 'CANCELLED' }) => call(port, 'PATCH', `/v2/automatic-pix/charges/${id(chargeId)}`, { key, json }),
    reschedule: (chargeId, json) => call(port, 'POST', `/v2/automatic-pix/charges/${id(chargeId)}/reschedule`, { key, json }),
    retry: (chargeId, json) => call(port, 'POST', `/v2/automatic-pix/charges/${id(chargeId)}/retry`, { key, json }),
    pay: (chargeId) => call(port, 'POST', `/v2/sandbox/charges/${id(chargeId)}/pay`, { key }),
    fail: (chargeId) => call(port, 'POST', `/v2/sandbox/charges/${id(chargeId)}/fail`, { key }),
    clock: () => call(port, 'GET', '/v2/sandbox/clock', { key }),
    advance: (json) => call(port, 'POST', '/v2/sandbox/clock/advance', { key, json }),
  };
}

/** The days from a to b (YYYY-MM-DD). */
export const daysFrom = (a: string, b: string): number => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** Advances the tenant's clock until its today is `date` (never back). */
export async function advanceTo(charges: ChargeClient, date: string): Promise<void> {
  const { body } = await charges.clock();
  const days = daysFrom(body.today, date);
  if (days > 0) expect((await charges.advance({ days })).status).toBe(200);
}

/** A ProviderError of the settlement system, whose violations name the rule. */
export const providerError = (reason: RegExp | string) =>
  expect.objectContaining({
    status: 400,
    body: expect.objectContaining({
      type: 'ProviderError',
      violations: expect.arrayContaining([expect.objectContaining({ reason: expect.stringMatching(reason) })]),
    }),
  });
