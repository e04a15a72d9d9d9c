import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { EventEnvelope, PayoutRecordData, payoutResponse, Tenant } from '@pixauto/contracts';
import { MAX_CENTAVOS } from '@pixauto/pix';
import { createTestDataSource, dropTestDataSource } from '@pixauto/event-store/testing';
import { applyPayoutEvents, CSV_COLUMNS, customerPayouts, findPayoutLookup, periodCsvCopy, periodPageJson } from './payout-lookups';
import { PeriodPageQuery } from './lookup-queries';
import { PAYOUT_QUERY_MIGRATIONS } from './payout-lookups.migration';

// The read model of payout-query-service on the real PostgreSQL: applied by version (idempotent, order-tolerant),
// read by the four lookups, exported by COPY.

let dataSource: DataSource;
beforeAll(async () => {
  dataSource = await createTestDataSource('payout_lookups', PAYOUT_QUERY_MIGRATIONS);
});
afterAll(() => dropTestDataSource(dataSource));

/** A period page as the merchant reads it: the JSON text PostgreSQL wrote, parsed. */
const periodPage = async (tenant: Tenant, query: PeriodPageQuery) => {
  const text = await periodPageJson(dataSource.manager, tenant, query);
  return JSON.parse(text) as { count_data: number; page: number; size: number; count_pages: number; data: Record<string, unknown>[] };
};

const newTenant = (): Tenant => ({ accountId: `acc_${randomUUID()}`, environment: 'sandbox' });
const record = (id: number, extra: Partial<PayoutRecordData> = {}): PayoutRecordData => ({
  id,
  transaction_id: `saque-${id}`,
  name: 'Maria Silva',
  document_number: '52998224725',
  document_type: 'CPF',
  amount_centavos: 12345,
  status: 0,
  pix_key: 'maria@example.com',
  bank: { type: 'PIX', bank_name: null, bank_code: null, ispb: null, account_agency: null, account_number: null },
  webhook: null,
  provider: 'PROVIDER_A',
  created_at: '2026-11-24T12:00:00.000Z',
  paid_at: null,
  e2e: null,
  psp_id: null,
  returns: [],
  ...extra,
});
const eventOf = (tenant: Tenant, payout: PayoutRecordData, version: number): EventEnvelope => ({
  event_id: randomUUID(),
  type: version === 1 ? 'payout.created' : 'payout.status_changed',
  stream_id: `payout:${tenant.accountId}:${tenant.environment}:${payout.id}`,
  version,
  tenant: { account_id: tenant.accountId, environment: tenant.environment },
  occurred_at: payout.created_at,
  data: { payout },
});

describe('the payout lookups read model', () => {
  it('keeps the latest version: a redelivery or an older event arriving late changes nothing', async () => {
    const tenant = newTenant();
    const created = record(1);
    const paid = record(1, { status: 1, paid_at: '2026-11-24T12:00:02.000Z', e2e: 'E12345678202611241200abcdefghijk', psp_id: 'PIXAUTOS000000000001' });
    await applyPayoutEvents(dataSource.manager, [eventOf(tenant, created, 1), eventOf(tenant, paid, 3), eventOf(tenant, record(1, { status: 4 }), 2)]);
    await applyPayoutEvents(dataSource.manager, [eventOf(tenant, created, 1)]);
    expect(await findPayoutLookup(dataSource.manager, tenant, { id: 1 })).toEqual(paid);
    expect(await findPayoutLookup(dataSource.manager, tenant, { transaction_id: 'saque-1' })).toEqual(paid);
    expect(await findPayoutLookup(dataSource.manager, { ...tenant, environment: 'production' }, { id: 1 })).toBeUndefined();
    // A return sent back by the receiving bank travels with the record.
    const returned = {
      ...paid,
      returns: [{ id: 9, refund_id: 'DEVOLVE1', amount_centavos: 100, rtr_id: 'D12345678202611241200abcdefghijk', returned_at: '2026-11-24T12:05:00.000Z' }],
    };
    await applyPayoutEvents(dataSource.manager, [eventOf(tenant, returned, 4)]);
    expect(await findPayoutLookup(dataSource.manager, tenant, { id: 1 })).toEqual(returned);
  });

  it('pages a period in created_at order and finds a customer’s history', async () => {
    const tenant = newTenant();
    const events = [3, 1, 2].map((n) =>
      eventOf(tenant, record(n, { created_at: `2026-11-24T12:00:0${n}.000Z`, document_number: n === 2 ? '11222333000181' : '52998224725' }), 1),
    );
    await applyPayoutEvents(dataSource.manager, events);
    const period = { start: new Date('2026-11-24T12:00:00Z'), endBefore: new Date('2026-11-24T12:00:03Z') };
    const page = await periodPage(tenant, { ...period, page: 1, size: 10 });
    expect(page).toEqual({ count_data: 2, page: 1, size: 10, count_pages: 1, data: [expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 })] }); // the end is exclusive here: 12:00:03 is out
    expect((await customerPayouts(dataSource.manager, tenant, '52998224725')).map((p) => p.id)).toEqual([1, 3]);
  });

  it('writes each payout of a page as the by-id answer without the bank’s name and refund_id, absent fields left out', async () => {
    const tenant = newTenant();
    const paid = record(1, {
      name: 'Zé "da Silva" \\ Ñandú, 中文 \u{1F600}',
      amount_centavos: 1,
      status: 1,
      bank: { type: 'PIX', bank_name: 'Itaú Unibanco S.A.', bank_code: '341', ispb: '60701190', account_agency: '0001', account_number: '12345-6' },
      webhook: 'https://shop.example.com/payouts?a=1&b="2"',
      created_at: '2026-11-24T12:00:00.007Z',
      paid_at: '2026-11-24T12:00:02.120Z',
      e2e: 'E60701190202611241200abcdefghijk',
      psp_id: 'PIXAUTOS000000000001',
      returns: [
        {
          id: 9,
          refund_id: 'D60701190202611241300abcdefghijk',
          amount_centavos: 1,
          rtr_id: 'D60701190202611241300abcdefghijk',
          returned_at: '2026-11-24T13:00:00.000Z',
        },
      ],
    });
    const amounts = [12345, 10000, 999_999_999_99, 7, 1_000_000_01, MAX_CENTAVOS];
    const others = amounts.map((amount, n) => record(2 + n, { amount_centavos: amount, status: 3, created_at: `2026-11-24T12:00:0${1 + n}.000Z` }));
    await applyPayoutEvents(
      dataSource.manager,
      [paid, ...others].map((p) => eventOf(tenant, p, 1)),
    );
    const page = await periodPage(tenant, { start: new Date('2026-11-24T00:00:00Z'), endBefore: new Date('2026-11-25T00:00:00Z'), page: 1, size: 10 });
    const periodForm = (p: PayoutRecordData) => {
      const form = payoutResponse(p, 'by_id');
      delete form.bank.bank_name;
      delete form.refund_id;
      return form;
    };
    expect(page.data).toEqual([paid, ...others].map(periodForm));
    // Key for key in the by-id answer's order, as JSON.stringify writes it.
    expect(JSON.stringify(page.data[1])).toBe(JSON.stringify(periodForm(others[0])));
    expect(page.data.map((p) => p.amount)).toEqual([0.01, 123.45, 100, 999999999.99, 0.07, 1000000.01, 70368744177663.99]);
  });

  it('keeps daily counts per status that match the rows, through redeliveries, late events and concurrent batches, and pages by them', async () => {
    const tenant = newTenant();
    // 60 payouts over three days and a bit (every 90 minutes from 2026-11-23 22:30), created, then most of them move on.
    const created = Array.from({ length: 60 }, (_, n) => record(n + 1, { created_at: new Date(Date.UTC(2026, 10, 23, 22, 30) + n * 5_400_000).toISOString() }));
    const processing = created.map((p) => ({ ...p, status: 4 as const }));
    const final = created.map((p) => ({ ...p, status: (p.id % 3 === 0 ? 3 : 1) as 1 | 3 }));
    const at = (payouts: PayoutRecordData[], version: number) => payouts.map((p) => eventOf(tenant, p, version));
    // Out of order, redelivered, and two batches at once on different connections (as two replicas would during a rebalance).
    await applyPayoutEvents(dataSource.manager, [...at(final.slice(0, 20), 3), ...at(created.slice(0, 30), 1)]);
    await Promise.all([
      dataSource.transaction((db) => applyPayoutEvents(db, [...at(created, 1), ...at(processing.slice(20, 40), 2)])),
      dataSource.transaction((db) => applyPayoutEvents(db, [...at(processing.slice(20, 50), 2), ...at(created.slice(25, 60), 1)])),
    ]);
    await applyPayoutEvents(dataSource.manager, [...at(final.slice(20, 50), 3), ...at(processing, 2), ...at(created, 1)]);

    const counts = await dataSource.query(
      `SELECT day::text, status, count FROM payout_daily_counts WHERE account_id = $1 AND count <> 0 ORDER BY day, status`,
      [tenant.accountId],
    );
    const fromRows = await dataSource.query(
      `SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, status, count(*)::int AS count FROM payout_lookups WHERE account_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [tenant.accountId],
    );
    expect(counts).toEqual(fromRows);
    expect(new Set(fromRows.map((r: { status: number }) => r.status))).toEqual(new Set([1, 3, 4])); // 51-60 still processing

    // A period's count and pages, whatever its partial days, are the rows' own.
    const rowsIn = async (start: Date, endBefore: Date, status?: number) =>
      (
        await dataSource.query(
          `SELECT count(*)::int AS n FROM payout_lookups WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 AND ($4::int IS NULL OR status = $4)`,
          [tenant.accountId, start, endBefore, status ?? null],
        )
      )[0].n;
    const periods: [string, string][] = [
      ['2026-11-24T00:00:00Z', '2026-11-25T00:00:00Z'], // a whole day
      ['2026-11-23T23:00:00Z', '2026-11-27T01:00:00Z'], // partial days at both ends, whole days between
      ['2026-11-24T03:00:00Z', '2026-11-24T13:30:01Z'], // inside one day
      ['2026-11-20T00:00:00Z', '2026-12-20T00:00:00Z'], // a month
      ['2026-11-24T00:00:00Z', '2026-11-26T06:00:00Z'], // whole days, then part of one
    ];
    // A page's payouts, as one OFFSET over the whole period would give them.
    const idsOf = async (start: Date, endBefore: Date, offset: number, status?: number) =>
      (
        await dataSource.query(
          `SELECT id::int FROM payout_lookups WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 AND ($4::int IS NULL OR status = $4)
            ORDER BY created_at, id LIMIT 5 OFFSET $5`,
          [tenant.accountId, start, endBefore, status ?? null, offset],
        )
      ).map((r: { id: number }) => r.id);
    for (const [start, end] of periods)
      for (const status of [undefined, 1, 3, 4] as const)
        for (const pageNumber of [1, 2, 3, 5, 8, 13]) {
          const query = { start: new Date(start), endBefore: new Date(end), page: pageNumber, size: 5, ...(status === undefined ? {} : { status }) };
          const page = await periodPage(tenant, query);
          expect({ start, end, status, pageNumber, count: page.count_data, ids: page.data.map((p) => p.id) }).toEqual({
            start,
            end,
            status,
            pageNumber,
            count: await rowsIn(query.start, query.endBefore, status),
            ids: await idsOf(query.start, query.endBefore, (pageNumber - 1) * 5, status),
          });
        }
  });

  it('exports a period as CSV with the 19 columns of the specification, free text quoted, quotes doubled, nulls empty', async () => {
    const tenant = newTenant();
    await applyPayoutEvents(dataSource.manager, [eventOf(tenant, record(7, { name: 'Silva, "Zé"' }), 1)]);
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    const client = await pool.connect();
    try {
      const sql = periodCsvCopy(tenant, { start: new Date('2026-11-24T00:00:00Z'), endBefore: new Date('2026-11-25T00:00:00Z') }, (v) =>
        client.escapeLiteral(v),
      );
      const chunks: Buffer[] = [];
      await new Promise<void>((resolve, reject) =>
        client
          .query(copyTo(sql))
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', resolve)
          .on('error', reject),
      );
      expect(Buffer.concat(chunks).toString('utf8')).toBe(
        `${CSV_COLUMNS.join(',')}\n7,"saque-7","Silva, ""Zé""",52998224725,CPF,BRL,123.45,0,PIX,,,,,,2026-11-24T12:00:00.000Z,,,,PROVIDER_A\n`,
      );
    } finally {
      client.release();
    }
  });

  it('neutralizes every text cell a spreadsheet would run as a formula with a leading quote, and leaves the numbers alone', async () => {
    const tenant = newTenant();
    const dangerous = ['=', '+', '-', '@', '\t', '\r'];
    await applyPayoutEvents(
      dataSource.manager,
      dangerous.map((start, n) =>
        eventOf(
          tenant,
          record(20 + n, { transaction_id: `${start}tx-${n}`, name: `${start}HYPERLINK("http://evil.example")`, webhook: `${start}cmd|' /C calc'!A0` }),
          1,
        ),
      ),
    );
    await applyPayoutEvents(dataSource.manager, [eventOf(tenant, record(30, { transaction_id: 'a=b', name: "O'Neil -1" }), 1)]);
    const text = await copyOut(tenant);
    const rows = text.trimEnd().split('\n').slice(1).join('\n');
    dangerous.forEach((start, n) => {
      expect(rows).toContain(
        `${20 + n},"'${start}tx-${n}","'${start}HYPERLINK(""http://evil.example"")",52998224725,CPF,BRL,123.45,0,PIX,,,,,"'${start}cmd|' /C calc'!A0",`,
      );
    });
    // Inside a value, or a value that starts safely, nothing changes.
    expect(rows).toContain(`30,"a=b","O'Neil -1",52998224725,CPF,BRL,123.45,0,`);
  });
});

/** The tenant's CSV of 24 November 2026, as COPY writes it. */
async function copyOut(tenant: Tenant): Promise<string> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const client = await pool.connect();
  try {
    const sql = periodCsvCopy(tenant, { start: new Date('2026-11-24T00:00:00Z'), endBefore: new Date('2026-11-25T00:00:00Z') }, (v) => client.escapeLiteral(v));
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) =>
      client
        .query(copyTo(sql))
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', resolve)
        .on('error', reject),
    );
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    client.release();
  }
}
