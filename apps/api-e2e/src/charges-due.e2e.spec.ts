/** @shared-system */
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { brasiliaDay, invalid, openAccount, recurrenceBody, recurrenceClient } from './support/recurrences';
import { RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// GET /v2/automatic-pix/charges: the charges of every recurrence of the account due in a period, in one request (what
// the console's overview reads), by due date, a status at a time if asked.

let system: RunningSystem;

beforeAll(async () => {
  system = sharedSystem();
});
const dueList = (key: string, query: string) => call(system.profile.sandbox, 'GET', `/v2/automatic-pix/charges?${query}`, { key });

it("lists the charges of all the account's recurrences due in the period, by due date, by status, and no other account's", async () => {
  const merchant = await openAccount(system);
  const recurrences = recurrenceClient(system, merchant, 'sandbox');
  const ids: string[] = [];
  for (const days of [4, 2]) {
    const created = await recurrences.create(
      recurrenceBody({ schedule: { start_date: brasiliaDay(days), periodicity: 'MONTHLY' }, amount: days, business_day_adjust: false }),
    );
    expect(created.status).toBe(201);
    expect((await recurrences.authorize(created.body.recurrence_id)).body.status).toBe('APPROVED');
    ids.push(created.body.recurrence_id);
  }
  const period = `due_from=${brasiliaDay(0)}&due_to=${brasiliaDay(10)}`;
  const listed = await eventually(
    () => dueList(merchant.sandbox, period),
    (answer) => answer.status === 200 && answer.body.charges.length === 2,
    WITHIN_SECONDS,
  );
  expect(listed.body.pagination).toEqual({ current_page: 0, page_size: 100, total_pages: 1, total_items: 2 });
  // By due date: the second recurrence's charge falls due first.
  expect(listed.body.charges.map((charge: { recurrence_id: string; amount: number }) => [charge.recurrence_id, charge.amount])).toEqual([
    [ids[1], 2],
    [ids[0], 4],
  ]);

  const first = listed.body.charges[0].charge_id as string;
  expect((await call(system.profile.sandbox, 'POST', `/v2/sandbox/charges/${first}/pay`, { key: merchant.sandbox })).status).toBe(200);
  const paid = await eventually(
    () => dueList(merchant.sandbox, `${period}&status=PAID`),
    (answer) => answer.status === 200 && answer.body.charges.length === 1,
    WITHIN_SECONDS,
  );
  expect(paid.body.charges[0]).toMatchObject({ charge_id: first, status: 'PAID' });
  expect((await dueList(merchant.sandbox, `${period}&status=SCHEDULED&page_size=1`)).body.pagination).toMatchObject({ total_items: 1, page_size: 1 });
  // Due dates outside the period, and another account: nothing.
  expect((await dueList(merchant.sandbox, `due_from=${brasiliaDay(0)}&due_to=${brasiliaDay(1)}`)).body.charges).toEqual([]);
  const other = await openAccount(system);
  expect((await dueList(other.sandbox, period)).body).toEqual({ pagination: { current_page: 0, page_size: 100, total_pages: 0, total_items: 0 }, charges: [] });
});

it('refuses a query without its period, with a date that is none, or with an unknown status, every problem at once', async () => {
  const merchant = await openAccount(system);
  expect(await dueList(merchant.sandbox, 'due_to=2026-02-30&status=LATE')).toEqual(
    invalid(
      'due_from and due_to are required. query.due_to is not a valid date. query.status must be one of the following values: SCHEDULED, PAID, FAILED, CANCELLED, EXPIRED',
    ),
  );
  expect(await dueList(merchant.sandbox, 'due_from=2026-11-30&due_to=2026-11-01')).toEqual(invalid('query.due_to must not be before query.due_from'));
});
