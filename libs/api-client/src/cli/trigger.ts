import { dataOf, type Pixauto } from '../pixauto';

// `pixauto trigger <event_type>`: a real sandbox flow that makes the event happen, through the merchant API as an
// integration would (the payer's and the bank's part played by the /v2/sandbox routes, time by the test clock).

const PAYER = { document_number: '52998224725', name: 'Maria Silva' };

/** What a flow made: printed for the developer, ids first. */
type Made = Record<string, unknown>;

interface Run {
  client: Pixauto;
  /** A suffix that makes this run's transaction ids its own. */
  unique: string;
  /** Waits this long (the test clock's work takes a moment to happen). */
  sleep: (ms: number) => Promise<void>;
}

const dayAfter = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function pixCharge({ client, unique }: Run, extra: { expires_in?: number } = {}) {
  return dataOf(
    await client.api.POST('/v2/pix', { body: { transaction_id: `trigger-${unique}`, amount: 10, payer: PAYER, description: 'pixauto trigger', ...extra } }),
  );
}

async function paidPixCharge(run: Run) {
  const charge = await pixCharge(run);
  return dataOf(await run.client.api.POST('/v2/sandbox/pix/{id}/pay', { params: { path: { id: String(charge.id) } } }));
}

async function refund(run: Run) {
  const charge = await paidPixCharge(run);
  return dataOf(await run.client.api.POST('/v2/transactions/refund', { body: { id: charge.id, refund_id: `trigger-${run.unique}`, amount: 5 } }));
}

async function recurrence({ client, unique }: Run) {
  const { today } = dataOf(await client.api.GET('/v2/sandbox/clock'));
  return dataOf(
    await client.api.POST('/v2/automatic-pix/recurrences', {
      body: {
        transaction_id: `trigger-${unique}`,
        debtor: PAYER,
        schedule: { start_date: dayAfter(today, 4), periodicity: 'MONTHLY' },
        amount: 19.9,
        retry_policy: 'ALLOWS_3R_7D',
        business_day_adjust: false,
        charge_lead_days: 3,
      },
    }),
  );
}

async function approved(run: Run) {
  const created = await recurrence(run);
  const path = { recurrence_id: created.recurrence_id };
  return dataOf(await run.client.api.POST('/v2/sandbox/recurrences/{recurrence_id}/authorize', { params: { path } }));
}

/** What `look` finds, once it finds it: the sandbox's timers act within seconds of the clock's advance. */
async function waitFor<T>(run: Run, what: string, look: () => Promise<T | undefined>): Promise<T> {
  for (let waited = 0; waited < 30_000; waited += 250) {
    const found = await look();
    if (found !== undefined) return found;
    await run.sleep(250);
  }
  throw new Error(`${what}: not seen within 30 s`);
}

/** An approved recurrence's first charge: created `charge_lead_days` before its due date, once the clock is there. */
async function cycleCharge(run: Run) {
  const { recurrence_id } = await approved(run);
  dataOf(await run.client.api.POST('/v2/sandbox/clock/advance', { body: { days: 1 } }));
  return waitFor(run, `the first charge of recurrence ${recurrence_id}`, async () => {
    const charges = dataOf(await run.client.api.GET('/v2/automatic-pix/recurrences/{recurrence_id}/charges', { params: { path: { recurrence_id } } }));
    return charges.charges[0];
  });
}

async function payout({ client, unique }: Run) {
  return dataOf(
    await client.api.POST('/v2/payout/pix', {
      body: { transaction_id: `trigger-${unique}`, amount: 5, name: PAYER.name, document_number: PAYER.document_number, pix_key: 'maria@example.com' },
    }),
  );
}

async function paidPayout(run: Run) {
  const made = await payout(run);
  return dataOf(await run.client.api.POST('/v2/sandbox/payouts/{id}/status', { params: { path: { id: String(made.id) } }, body: { status: 1 } }));
}

/** Each event type the command can make, and how. */
export const TRIGGERS: Record<string, (run: Run) => Promise<Made>> = {
  'recurrence.created': recurrence,
  'recurrence.updated': async (run) => {
    const { recurrence_id } = await recurrence(run);
    return dataOf(
      await run.client.api.PATCH('/v2/automatic-pix/recurrences/{recurrence_id}', {
        params: { path: { recurrence_id } },
        body: { debtor_name: 'Maria S. Silva' },
      }),
    );
  },
  'recurrence.approved': approved,
  'recurrence.rejected': async (run) => {
    const { recurrence_id } = await recurrence(run);
    return dataOf(await run.client.api.POST('/v2/sandbox/recurrences/{recurrence_id}/reject', { params: { path: { recurrence_id } } }));
  },
  'recurrence.cancelled': async (run) => {
    const { recurrence_id } = await recurrence(run);
    return dataOf(
      await run.client.api.PATCH('/v2/automatic-pix/recurrences/{recurrence_id}', { params: { path: { recurrence_id } }, body: { status: 'CANCELLED' } }),
    );
  },
  'charge.created': cycleCharge,
  'charge.paid': async (run) => {
    const { charge_id } = await cycleCharge(run);
    return dataOf(await run.client.api.POST('/v2/sandbox/charges/{charge_id}/pay', { params: { path: { charge_id } } }));
  },
  'charge.failed': async (run) => {
    const { charge_id } = await cycleCharge(run);
    return dataOf(await run.client.api.POST('/v2/sandbox/charges/{charge_id}/fail', { params: { path: { charge_id } } }));
  },
  'pix_charge.created': (run) => pixCharge(run),
  'pix_charge.paid': paidPixCharge,
  'pix_charge.expired': async (run) => {
    const { id } = await pixCharge(run, { expires_in: 60 });
    dataOf(await run.client.api.POST('/v2/sandbox/clock/advance', { body: { hours: 1 } }));
    return waitFor(run, 'the Pix charge expired', async () => {
      const charge = dataOf(await run.client.api.GET('/v2/pix', { params: { query: { id } } }));
      return charge.status === 'EXPIRED' ? charge : undefined;
    });
  },
  'pix_charge.refund_requested': refund,
  'pix_charge.refunded': async (run) => {
    const made = await refund(run);
    return dataOf(await run.client.api.POST('/v2/sandbox/refunds/{id}/settle', { params: { path: { id: String(made.id) } } }));
  },
  'payout.created': payout,
  'payout.status_changed': paidPayout,
  'payout.returned': async (run) => {
    const made = await paidPayout(run);
    return dataOf(await run.client.api.POST('/v2/sandbox/payouts/{id}/return', { params: { path: { id: String(made.id) } }, body: {} }));
  },
};

export const triggerable = (): string[] => Object.keys(TRIGGERS);

export async function trigger(client: Pixauto, eventType: string, unique: string, sleep: Run['sleep']): Promise<Made> {
  const flow = TRIGGERS[eventType];
  if (!flow) throw new Error(`pixauto trigger makes these events: ${triggerable().join(', ')} (not ${eventType})`);
  return flow({ client, unique, sleep });
}
