import { useEffect, useId, useState } from 'react';
import { consoleCall, merchantApi, money, type MerchantApi, type Session } from '../api';
import { nothingMoved, scaleTop, volumeOf, type DailyTotals, type DayVolume } from '../overview';
import { hrefOf } from '../routing';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';
import { When } from './When';

/** An answer's data, or its refusal as an error: a figure the API did not give is never shown as a zero. */
function dataOf<T>({ data, error }: { data?: T; error?: unknown }): T {
  if (data === undefined) throw new Error((error as { message?: string } | undefined)?.message ?? 'The API did not answer: try again in a moment');
  return data;
}

/**
 * Everything the overview shows, in one request: the daily totals of the 30 days ending on the environment's today
 * (the sandbox's test clock), summed exactly where the data is.
 */
async function readFigures(api: MerchantApi): Promise<DailyTotals> {
  return dataOf(await api.GET('/v2/reports/daily-totals'));
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
    [
      'webhook',
      'webhook-endpoints',
      'Add a webhook endpoint',
      "to receive your account's events (or give a webhook URL on a recurrence, a Pix charge or a payout, or send a test event)",
    ],
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
function VolumeChart({ title, volume, total }: { title: string; volume: DayVolume[]; total: { count: number; amount: number } }) {
  const id = useId();
  const top = scaleTop(Math.max(...volume.map((day) => day.amount)));
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

/** Disputes awaiting a defence (opened in the last 90 days, whose defences run for days): how many, and the one due first. */
async function readOpenDisputes(api: MerchantApi): Promise<OpenDisputes> {
  const start = new Date(Date.now() - 90 * 86_400_000).toISOString();
  const end = new Date(Date.now() + 400 * 86_400_000).toISOString();
  const { data, error } = await api.GET('/v2/disputes', { params: { query: { start, end, status: 'OPEN', page_size: 100 } } });
  if (!data) throw new Error((error as { message: string }).message);
  const first = [...data.disputes].sort((a, b) => a.defence_deadline.localeCompare(b.defence_deadline))[0];
  return { count: data.pagination.total_items, first };
}

interface OpenDisputes {
  count: number;
  first?: { id: number; defence_deadline: string; amount: number };
}

/** The console's home: today's and the last 30 days' volume, and what needs attention. */
export function Overview({ api, environment, session, clockMoves }: PageContext) {
  const [figures, setFigures] = useState<DailyTotals>();
  const [error, setError] = useState<string>();
  const [steps, setSteps] = useState<FirstSteps>();
  const [disputes, setDisputes] = useState<OpenDisputes>();

  useEffect(() => {
    void readFirstSteps(session).then(setSteps, () => setSteps(undefined));
  }, [session, clockMoves]);

  useEffect(() => {
    setFigures(undefined);
    setError(undefined);
    readFigures(api).then(setFigures, (failure: Error) => setError(failure.message));
    readOpenDisputes(api).then(setDisputes, (failure: Error) => setError(failure.message));
  }, [api, environment, clockMoves]);

  const today = figures?.days[figures.days.length - 1];
  const started = steps && steps.key && steps.recurrence && steps.webhook;
  const period = figures?.days.length;

  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {steps && !started && <Checklist steps={steps} />}
      <Alert message={error} />
      {!figures && !error && <p className="loading">Reading your figures…</p>}
      {figures && today && (
        <>
          <h2>Today</h2>
          <dl className="terms" data-testid="today">
            <dt>Automatic Pix charges paid</dt>
            <dd data-testid="today-charges">
              {today.automatic_pix_charges_paid.count} for {money(today.automatic_pix_charges_paid.amount)}
            </dd>
            <dt>Pix charges paid (cash-in)</dt>
            <dd data-testid="today-cash-in">
              {today.pix_charges_paid.count} for {money(today.pix_charges_paid.amount)}
            </dd>
            <dt>Refunds</dt>
            <dd data-testid="today-refunds">
              {today.refunds.count} for {money(today.refunds.amount)}
            </dd>
            <dt>Payouts</dt>
            <dd data-testid="today-payouts">
              {today.payouts.count} for {money(today.payouts.amount)}
            </dd>
          </dl>

          <h2>Needs attention</h2>
          <ul className="attention" data-testid="attention">
            <li>
              <strong>{figures.failed_webhook_deliveries}</strong> webhook deliveries failed in the last {period} days (every attempt refused).
            </li>
            <li>
              <strong>{figures.failed_charges.count}</strong> Automatic Pix charges due in the last {period} days failed
              {figures.failed_charges.count > 0 && ':'}
              {figures.failed_charges.latest.length > 0 && (
                <ul>
                  {figures.failed_charges.latest.map((charge) => (
                    <li key={charge.charge_id}>
                      <a href={hrefOf({ environment, page: 'recurrences', id: charge.recurrence_id })}>
                        {money(charge.amount)} due {charge.due_date}
                      </a>
                    </li>
                  ))}
                  {figures.failed_charges.count > figures.failed_charges.latest.length && (
                    <li className="muted">and {figures.failed_charges.count - figures.failed_charges.latest.length} more, due earlier</li>
                  )}
                </ul>
              )}
            </li>
            <li>
              <strong>{figures.rejected_payouts}</strong> payouts made in the last {period} days were rejected by the bank.
            </li>
            {disputes && (
              <li data-testid="attention-disputes">
                <strong>{disputes.count}</strong> <a href={hrefOf({ environment, page: 'disputes' })}>disputes</a> await your defence
                {disputes.first && (
                  <>
                    : the first is due{' '}
                    <a href={hrefOf({ environment, page: 'disputes', id: String(disputes.first.id) })}>
                      <When iso={disputes.first.defence_deadline} testClock={environment === 'sandbox'} />
                    </a>{' '}
                    ({money(disputes.first.amount)})
                  </>
                )}
                .
              </li>
            )}
          </ul>

          <h2>Last {period} days</h2>
          {nothingMoved(figures) ? (
            <p data-testid="no-volume">Nothing was paid, refunded or paid out in the last {period} days: the charts show here once money moves.</p>
          ) : (
            <>
              <VolumeChart
                title="Automatic Pix charges paid"
                volume={volumeOf(figures, 'automatic_pix_charges_paid')}
                total={figures.totals.automatic_pix_charges_paid}
              />
              <VolumeChart title="Pix charges paid (cash-in)" volume={volumeOf(figures, 'pix_charges_paid')} total={figures.totals.pix_charges_paid} />
              <VolumeChart title="Refunds" volume={volumeOf(figures, 'refunds')} total={figures.totals.refunds} />
              <VolumeChart title="Payouts" volume={volumeOf(figures, 'payouts')} total={figures.totals.payouts} />
            </>
          )}
          <p className="muted">
            Days are Brasília days, from {figures.start_day} to {figures.end_day}. Automatic Pix charges paid count on the day the payer's bank paid them.
            Payouts count on the day you made them, canceled and rejected ones left out. Pix charges paid (journey 3 activation payments among them) count on
            the day the payer paid them, refunds on the day they were asked for, failed ones left out.
          </p>
        </>
      )}
    </section>
  );
}
