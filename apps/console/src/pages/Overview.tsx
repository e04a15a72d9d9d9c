import { useEffect, useId, useState } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { consoleCall, merchantApi, money, type MerchantApi, type Session } from '../api';
import { dayBefore } from '../forms';
import {
  brasiliaDay,
  cashInCreatedSince,
  chargesFailed,
  chargesPaid,
  dailyVolume,
  daysUpTo,
  payoutsSent,
  refundsMade,
  scaleTop,
  startOfBrasiliaDay,
  totalOf,
  type DayVolume,
} from '../overview';
import { hrefOf } from '../routing';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';

type Charge = SandboxComponents['schemas']['ChargeResponse'];
type Payout = SandboxComponents['schemas']['PayoutResponse'];
type Pagination = SandboxComponents['schemas']['Pagination'];

const PERIOD_DAYS = 30;
/** Payouts, Pix charges paid, refunds and Automatic Pix charges read for the charts: 10 pages of 100 of each. */
const PAGES_READ = 10;
/** A failed charge may be retried and paid up to 7 days after its due date: charges paid in the period fell due up to 7 days before it. */
const RETRY_DAYS = 7;
/** A charge is created at most 10 days before its due date. */
const LEAD_DAYS = 10;

interface Figures {
  days: string[];
  charges: DayVolume[];
  payouts: DayVolume[];
  payoutsTruncated: boolean;
  cashIn: DayVolume[];
  refunds: DayVolume[];
  /** More Pix charges paid or refunds in the period than the pages read. */
  cashInTruncated: boolean;
  /** More Automatic Pix charges due in the period than the pages read. */
  chargesTruncated: boolean;
  failedCharges: Charge[];
  rejectedPayouts: number;
  failedDeliveries: number;
}

/** The payout period's format: YYYY-MM-DD HH:MM:SS in UTC. */
const payoutTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

/** An answer's data, or its refusal as an error: a figure the API did not give is never shown as a zero. */
function dataOf<T>({ data, error }: { data?: T; error?: unknown }): T {
  if (data === undefined) throw new Error((error as { message?: string } | undefined)?.message ?? 'The API did not answer: try again in a moment');
  return data;
}

/** The items of a list by period, page after page from 0, up to PAGES_READ pages; `truncated` when there were more. */
async function readPages<T>(read: (page: number) => Promise<{ pagination: Pagination; items: T[] }>): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  let pages = 1;
  for (let page = 0; page < Math.min(pages, PAGES_READ); page++) {
    const answer = await read(page);
    items.push(...answer.items);
    pages = answer.pagination.total_pages;
  }
  return { items, truncated: pages > PAGES_READ };
}

/** Everything the overview shows, from the merchant API's lists, in the environment's own time (the sandbox's test clock). */
async function readFigures(api: MerchantApi, sandbox: boolean): Promise<Figures> {
  const now = sandbox ? dataOf(await api.GET('/v2/sandbox/clock')).now : new Date().toISOString();
  const today = brasiliaDay(now);
  const days = daysUpTo(today, PERIOD_DAYS);
  const from = startOfBrasiliaDay(days[0]);
  const until = new Date(Date.parse(startOfBrasiliaDay(today)) + 86_399_000).toISOString();

  const payouts: Payout[] = [];
  let payoutPages = 1;
  for (let page = 1; page <= Math.min(payoutPages, PAGES_READ); page++) {
    const data = dataOf(await api.GET('/v2/withdrawals/period', { params: { query: { start: payoutTime(from), end: payoutTime(until), page, size: 100 } } }));
    payouts.push(...data.data);
    payoutPages = data.count_pages;
  }
  const rejected = dataOf(
    await api.GET('/v2/withdrawals/period', {
      params: { query: { start: payoutTime(from), end: payoutTime(until), page: 1, size: 1, status: '3' /* rejected */ } },
    }),
  );
  // Pix charges count on the day they were paid: those created a day before the period may have been paid in it.
  const endOfToday = new Date(Date.parse(startOfBrasiliaDay(today)) + 86_400_000).toISOString();
  const cashIn = await readPages(async (page) => {
    const query = { start: cashInCreatedSince(from), end: endOfToday, status: 'PAID' as const, page, page_size: 100 };
    const { pagination, charges } = dataOf(await api.GET('/v2/pix/charges', { params: { query } }));
    return { pagination, items: charges };
  });
  const refunds = await readPages(async (page) => {
    const { pagination, refunds } = dataOf(
      await api.GET('/v2/transactions/refunds', { params: { query: { start: from, end: endOfToday, page, page_size: 100 } } }),
    );
    return { pagination, items: refunds };
  });
  const deliveries = dataOf(await api.GET('/v2/webhooks/deliveries', { params: { query: { status: 'failed', start: days[0], page_size: 1 } } }));

  // Every recurrence's charges at once, by due date: those paid in the period fell due in it or up to RETRY_DAYS
  // before, or fall due within LEAD_DAYS (created ahead, a sandbox payer may pay them early).
  const charges = await readPages(async (page) => {
    const query = { due_from: dayBefore(days[0], RETRY_DAYS), due_to: dayBefore(today, -LEAD_DAYS), page, page_size: 100 };
    const { pagination, charges } = dataOf(await api.GET('/v2/automatic-pix/charges', { params: { query } }));
    return { pagination, items: charges };
  });

  return {
    days,
    charges: dailyVolume(chargesPaid(charges.items), days),
    payouts: dailyVolume(payoutsSent(payouts), days),
    payoutsTruncated: payoutPages > PAGES_READ,
    cashIn: dailyVolume(chargesPaid(cashIn.items), days),
    refunds: dailyVolume(refundsMade(refunds.items), days),
    cashInTruncated: cashIn.truncated || refunds.truncated,
    chargesTruncated: charges.truncated,
    failedCharges: chargesFailed(charges.items, days),
    rejectedPayouts: rejected.count_data,
    failedDeliveries: deliveries.pagination.total_items,
  };
}

/** The first steps of an integration, each done or not (in the sandbox, whichever environment is shown). */
interface FirstSteps {
  key: boolean;
  recurrence: boolean;
  webhook: boolean;
}

/**
 * What the account has done of its first steps: a key of its own (not the console's), a sandbox recurrence, a webhook
 * URL that was sent something (any delivery). Undefined when one of them could not be read: no step is ticked or
 * unticked on a guess.
 */
async function readFirstSteps(session: Session): Promise<FirstSteps | undefined> {
  const sandbox = merchantApi('sandbox', session);
  const [keys, recurrences, deliveries] = await Promise.all([
    consoleCall<{ api_keys: Array<{ environment: string; console: boolean; revoked_at: string | null }> }>(session, 'GET', '/console/v1/api-keys'),
    sandbox.GET('/v2/automatic-pix/recurrences', { params: { query: { start: '2000-01-01T00:00:00Z', end: '9999-12-31T00:00:00Z', page: 0, page_size: 1 } } }),
    sandbox.GET('/v2/webhooks/deliveries', { params: { query: { page_size: 1 } } }),
  ]);
  if (!keys.data || !recurrences.data || !deliveries.data) return undefined;
  return {
    key: keys.data.api_keys.some((key) => key.environment === 'sandbox' && !key.console && !key.revoked_at),
    recurrence: recurrences.data.pagination.total_items > 0,
    webhook: deliveries.data.pagination.total_items > 0,
  };
}

/** The first steps as a checklist, each a link to where it is done, ticked once done. */
function Checklist({ steps }: { steps: FirstSteps }) {
  const items: Array<[keyof FirstSteps, string, string, string]> = [
    ['key', 'api-keys', 'Create a sandbox API key', 'for your integration to call the API with'],
    ['recurrence', 'new-recurrence', 'Create a first sandbox recurrence', 'and play the payer authorizing it'],
    ['webhook', 'webhooks', 'Set a webhook URL', 'on a recurrence, a Pix charge or a payout (or send a test event) to receive its events'],
  ];
  return (
    <section aria-labelledby="first-steps-title" className="first-steps" data-testid="first-steps">
      <h2 id="first-steps-title">Get started</h2>
      <p>Three steps in the sandbox, where nothing moves real money:</p>
      <ol className="checklist">
        {items.map(([step, page, title, why]) => (
          <li key={step} className={steps[step] ? 'done' : undefined} data-testid={`step-${step}`}>
            <span className="tick" aria-hidden="true">
              {steps[step] ? '✓' : ''}
            </span>
            <a href={hrefOf({ environment: 'sandbox', page })}>{title}</a> {why}.{' '}
            <span className={steps[step] ? 'step-done' : 'muted'}>{steps[step] ? 'Done.' : 'Not yet.'}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Amounts per day as bars, with the same figures as a table for whoever does not see the chart. */
function VolumeChart({ title, volume }: { title: string; volume: DayVolume[] }) {
  const id = useId();
  const top = scaleTop(Math.max(...volume.map((day) => day.amount)));
  const total = totalOf(volume);
  const [width, height, barGap] = [600, 140, 2];
  const barWidth = width / volume.length - barGap;
  return (
    <figure className="chart">
      <figcaption>
        <strong>{title}</strong>: {total.count} for {money(total.amount)} in {volume.length} days
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-labelledby={`${id}-title`}>
        <title id={`${id}-title`}>
          {title}, by day: {total.count} for {money(total.amount)} in the last {volume.length} days, at most{' '}
          {money(Math.max(...volume.map((day) => day.amount)))} in a day
        </title>
        <line x1="0" y1={height} x2={width} y2={height} className="chart-axis" />
        <line x1="0" y1="0" x2={width} y2="0" className="chart-grid" />
        <text x="0" y="12" className="chart-label">
          {money(top)}
        </text>
        {volume.map((day, i) => {
          const barHeight = (day.amount / top) * height;
          return <rect key={day.day} x={i * (barWidth + barGap)} y={height - barHeight} width={barWidth} height={barHeight} className="chart-bar" />;
        })}
        <text x="0" y={height + 16} className="chart-label">
          {volume[0].day}
        </text>
        <text x={width} y={height + 16} textAnchor="end" className="chart-label">
          {volume[volume.length - 1].day}
        </text>
      </svg>
      <details>
        <summary>{title}: figures by day</summary>
        <ScrollBox label="Figures by day">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">How many</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {volume.map((day) => (
                <tr key={day.day}>
                  <td>{day.day}</td>
                  <td>{day.count}</td>
                  <td>{money(day.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </details>
    </figure>
  );
}

/** The console's home: today's and the last 30 days' volume, and what needs attention. */
export function Overview({ api, environment, session, clockMoves }: PageContext) {
  const [figures, setFigures] = useState<Figures>();
  const [error, setError] = useState<string>();
  const [steps, setSteps] = useState<FirstSteps>();

  useEffect(() => {
    void readFirstSteps(session).then(setSteps, () => setSteps(undefined));
  }, [session, clockMoves]);

  useEffect(() => {
    setFigures(undefined);
    setError(undefined);
    readFigures(api, environment === 'sandbox').then(setFigures, (failure: Error) => setError(failure.message));
  }, [api, environment, clockMoves]);

  const today = (volume: DayVolume[]) => volume[volume.length - 1];
  const quiet = figures && [figures.charges, figures.cashIn, figures.refunds, figures.payouts].every((volume) => totalOf(volume).count === 0);
  const started = steps && steps.key && steps.recurrence && steps.webhook;

  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {steps && !started && <Checklist steps={steps} />}
      <Alert message={error} />
      {!figures && !error && <p className="loading">Reading your figures…</p>}
      {figures && (
        <>
          <h2>Today</h2>
          <dl className="terms" data-testid="today">
            <dt>Automatic Pix charges paid</dt>
            <dd data-testid="today-charges">
              {today(figures.charges).count} for {money(today(figures.charges).amount)}
            </dd>
            <dt>Pix charges paid (cash-in)</dt>
            <dd data-testid="today-cash-in">
              {today(figures.cashIn).count} for {money(today(figures.cashIn).amount)}
            </dd>
            <dt>Refunds</dt>
            <dd data-testid="today-refunds">
              {today(figures.refunds).count} for {money(today(figures.refunds).amount)}
            </dd>
            <dt>Payouts</dt>
            <dd data-testid="today-payouts">
              {today(figures.payouts).count} for {money(today(figures.payouts).amount)}
            </dd>
          </dl>

          <h2>Needs attention</h2>
          <ul className="attention" data-testid="attention">
            <li>
              <strong>{figures.failedDeliveries}</strong> webhook deliveries failed in the last {PERIOD_DAYS} days (every attempt refused).
            </li>
            <li>
              <strong>{figures.failedCharges.length}</strong> Automatic Pix charges due in the last {PERIOD_DAYS} days failed
              {figures.failedCharges.length > 0 && ':'}
              {figures.failedCharges.length > 0 && (
                <ul>
                  {figures.failedCharges.slice(0, 10).map((charge) => (
                    <li key={charge.charge_id}>
                      <a href={hrefOf({ environment, page: 'recurrences', id: charge.recurrence_id })}>
                        {money(charge.amount)} due {charge.due_date}
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
            <li>
              <strong>{figures.rejectedPayouts}</strong> payouts made in the last {PERIOD_DAYS} days were rejected by the bank.
            </li>
          </ul>

          <h2>Last {PERIOD_DAYS} days</h2>
          {quiet ? (
            <p data-testid="no-volume">Nothing was paid, refunded or paid out in the last {PERIOD_DAYS} days: the charts show here once money moves.</p>
          ) : (
            <>
              <VolumeChart title="Automatic Pix charges paid" volume={figures.charges} />
              <VolumeChart title="Pix charges paid (cash-in)" volume={figures.cashIn} />
              <VolumeChart title="Refunds" volume={figures.refunds} />
              <VolumeChart title="Payouts" volume={figures.payouts} />
            </>
          )}
          <p className="muted">
            Days are Brasília days. Automatic Pix charges paid count on the day the payer's bank paid them
            {figures.chargesTruncated && `, the first ${PAGES_READ * 100} due in the period only`}. Payouts count on the day you made them, canceled and
            rejected ones left out{figures.payoutsTruncated && `, the first ${PAGES_READ * 100} of the period only`}. Pix charges paid (journey 3 activation
            payments among them) count on the day the payer paid them, refunds on the day they were asked for, failed ones left out
            {figures.cashInTruncated && `; of each, the newest ${PAGES_READ * 100} only`}.
          </p>
        </>
      )}
    </section>
  );
}
