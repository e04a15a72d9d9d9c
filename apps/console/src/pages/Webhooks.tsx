import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents, SandboxPaths } from '@pixauto/api-client';
import { consoleCall, mayAct, problemsAbove, problemsByField, type ApiError, type Session } from '../api';
import { go, hrefOf } from '../routing';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Field } from './Field';
import './Webhooks.css';
import { Alert } from './Alert';
import { DELIVERY_STATUS, labelOf } from '../labels';
import { When, withZone } from './When';

type DeliveryList = SandboxComponents['schemas']['DeliveryListResponse'];
type Delivery = SandboxComponents['schemas']['DeliveryResponse'];
type EventType = Delivery['event_type'];
type Status = Delivery['status'];
type Endpoint = SandboxComponents['schemas']['WebhookEndpointResponse'];
type RotatedSecret = { environment: string; webhook_secret: string; previous_secret_valid_until: string | null };

/** Every event type a webhook receives; the compiler holds it to the API's own list (below). */
export const EVENT_TYPES = [
  'recurrence.created',
  'recurrence.updated',
  'recurrence.approved',
  'recurrence.rejected',
  'recurrence.expired',
  'recurrence.cancelled',
  'recurrence.activation_expired',
  'charge.created',
  'charge.paid',
  'charge.failed',
  'charge.cancelled',
  'charge.rescheduled',
  'charge.retry_scheduled',
  'charge.expired',
  'pix_charge.created',
  'pix_charge.paid',
  'pix_charge.expired',
  'pix_charge.refund_requested',
  'pix_charge.refunded',
  'pix_charge.refund_failed',
  'pix_charge.dispute_opened',
  'pix_charge.dispute_defended',
  'pix_charge.dispute_returned',
  'pix_charge.dispute_rejected',
  'due_date_charge.paid',
  'due_date_charge.expired',
  'due_date_charge.cancelled',
  'payout.created',
  'payout.status_changed',
  'payout.returned',
] as const satisfies readonly EventType[];
// A type the API sends that the list above lacks fails to compile here.
const everyEventType: Record<Exclude<EventType, (typeof EVENT_TYPES)[number]>, never> = {};
void everyEventType;

const STATUSES: Status[] = ['pending', 'delivered', 'failed', 'cancelled'];
/** A delivery's status in the colours the other pages give theirs. */
const STATUS_LOOK: Record<Status, string> = { pending: 'SCHEDULED', delivered: 'PAID', failed: 'FAILED', cancelled: 'CANCELLED' };
const FILTERS = ['resource_id', 'event_type', 'endpoint_id', 'status', 'start', 'end'] as const;
/** The log's filters as the API takes them (the form's values, checked by the API itself). */
type Filters = Omit<NonNullable<SandboxPaths['/v2/webhooks/deliveries']['get']['parameters']['query']>, 'page' | 'page_size'>;
/** What the page reads again by itself: a delivery's attempts come within seconds. */
const REFRESH_MS = 2000;

export function StatusBadge({ status }: { status: Status }) {
  return <span className={`status status-${STATUS_LOOK[status]}`}>{labelOf(DELIVERY_STATUS, status)}</span>;
}

/** Webhooks: the delivery log and its filters, a delivery's attempts, retries, test events and the signing secret. */
export function Webhooks({ api, environment, session, clockMoves, deliveryId }: PageContext & { deliveryId?: string }) {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(0);
  const [list, setList] = useState<DeliveryList>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [reads, setReads] = useState(0);
  const [retry, setRetry] = useState<RetryReview>();
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const acts = mayAct(session.role, environment);

  // The account's webhook endpoints, by which the log is filtered and each delivery named.
  useEffect(() => {
    void api.GET('/v2/webhooks/endpoints').then(({ data }) => setEndpoints(data?.endpoints ?? []));
  }, [api]);

  useEffect(() => {
    void api.GET('/v2/webhooks/deliveries', { params: { query: { ...filters, page, page_size: 20 } } }).then(({ data, error }) => {
      setList(data);
      setError(error ? (error as ApiError).message : undefined);
    });
  }, [api, filters, page, clockMoves, reads]);

  useEffect(() => {
    const timer = setInterval(() => setReads((n) => n + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFilters(Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? '').trim()]).filter(([, value]) => value !== '')) as Filters);
    setPage(0);
    setNotice(undefined);
    setRetry(undefined);
  };

  /** Which deliveries a retry would send again, shown before anything is sent. */
  const reviewRetry = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const which = (filters.status ?? String(new FormData(event.currentTarget).get('which'))) as Status | '';
    const query = { ...filters, ...(which ? { status: which } : { status: undefined }) };
    const { data, error } = await api.GET('/v2/webhooks/deliveries', { params: { query: { ...query, page: 0, page_size: RETRY_SHOWN } } });
    setError(error ? (error as ApiError).message : undefined);
    setNotice(undefined);
    if (data) setRetry({ which, total: data.pagination.total_items, deliveries: data.deliveries });
  };

  const retryMatching = async () => {
    if (!retry) return;
    const query = { ...filters, ...(retry.which ? { status: retry.which } : { status: undefined }) };
    const { data, error } = await api.POST('/v2/webhooks/deliveries/retry', { params: { query } });
    setRetry(undefined);
    setError(error ? (error as ApiError).message : undefined);
    if (data) setNotice(`${data.queued} ${data.queued === 1 ? 'delivery' : 'deliveries'} queued for one more attempt now.`);
    setReads((n) => n + 1);
  };

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <p className="muted">
        Every webhook your account sent in the {environment}. To have your account&apos;s events sent to URLs of your own, each with its own signing secret, add{' '}
        <a href={hrefOf({ environment, page: 'webhook-endpoints' })}>webhook endpoints</a>.
      </p>
      {deliveryId && <DeliveryDetail key={deliveryId} {...{ api, environment, session, clockMoves, deliveryId, reads }} />}
      <h2>Deliveries</h2>
      <form onSubmit={filter} className="inline filters" aria-label="Filter deliveries">
        <label htmlFor="filter-resource">Resource id</label>
        <input id="filter-resource" name="resource_id" defaultValue={filters.resource_id} />
        <label htmlFor="filter-event">Event type</label>
        <select id="filter-event" name="event_type" defaultValue={filters.event_type ?? ''}>
          <option value="">Any</option>
          {EVENT_TYPES.map((type) => (
            <option key={type}>{type}</option>
          ))}
        </select>
        {endpoints.length > 0 && (
          <>
            <label htmlFor="filter-endpoint">Endpoint</label>
            <select id="filter-endpoint" name="endpoint_id" defaultValue={filters.endpoint_id ?? ''}>
              <option value="">Any</option>
              {endpoints.map((endpoint) => (
                <option key={endpoint.endpoint_id} value={endpoint.endpoint_id}>
                  {endpointName(endpoint)}
                </option>
              ))}
            </select>
          </>
        )}
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" name="status" defaultValue={filters.status ?? ''}>
          <option value="">Any</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {DELIVERY_STATUS[status]}
            </option>
          ))}
        </select>
        <label htmlFor="filter-start">Created from</label>
        <input id="filter-start" name="start" type="date" defaultValue={filters.start} />
        <label htmlFor="filter-end">to</label>
        <input id="filter-end" name="end" type="date" defaultValue={filters.end} />
        <button type="submit" className="secondary">
          Filter
        </button>
      </form>
      {acts && list && list.pagination.total_items > 0 && (
        <form className="inline" aria-label="Retry deliveries" onSubmit={(event) => void reviewRetry(event)}>
          {filters.status ? (
            <span>Retry the {filters.status} deliveries this filter matches</span>
          ) : (
            <>
              <label htmlFor="retry-which">Retry the deliveries this filter matches that are</label>
              <select id="retry-which" name="which" defaultValue="failed">
                <option value="failed">failed</option>
                <option value="pending">pending</option>
                <option value="">of any status (delivered ones too)</option>
              </select>
            </>
          )}
          <button type="submit" className="secondary">
            Retry…
          </button>
        </form>
      )}
      {retry && <RetryConfirmation review={retry} onConfirm={() => void retryMatching()} onKeep={() => setRetry(undefined)} />}
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <Alert message={error} />
      {list && list.deliveries.length === 0 && <p>No delivery matches.</p>}
      {list && list.deliveries.length > 0 && (
        <ScrollBox label="Deliveries">
          <table data-testid="deliveries">
            <caption className="visually-hidden">Webhook deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">{withZone('Created')}</th>
                <th scope="col">Event</th>
                <th scope="col">Resource</th>
                <th scope="col">Sent to</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {list.deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <a href={hrefOf({ environment, page: 'webhooks', id: delivery.id })}>
                      <When iso={delivery.created_at} />
                    </a>
                  </td>
                  <td className="whole">{delivery.event_type}</td>
                  <td className="whole">{delivery.resource_id}</td>
                  <td>
                    <SentTo delivery={delivery} endpoints={endpoints} />
                  </td>
                  <td>
                    <StatusBadge status={delivery.status} />
                  </td>
                  <td>{delivery.attempt_count}</td>
                  <td>{delivery.last_error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {list && list.pagination.total_pages > 1 && (
        <nav aria-label="Pages" className="inline">
          <button type="button" className="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page + 1} of {list.pagination.total_pages}
          </span>
          <button type="button" className="secondary" disabled={page + 1 >= list.pagination.total_pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
      {acts && <TestEvent api={api} environment={environment} />}
      {session.role === 'owner' && <SigningSecret key={environment} session={session} environment={environment} />}
    </section>
  );
}

/** An endpoint as the filter names it: its description, or its URL. */
const endpointName = (endpoint: Endpoint): string => endpoint.description || endpoint.url;

/** Where a delivery goes: the webhook endpoint it is for (named as the filter names it), or the resource's own webhook URL. */
function SentTo({ delivery, endpoints }: { delivery: Pick<Delivery, 'endpoint_id' | 'url'>; endpoints: Endpoint[] }) {
  if (!delivery.endpoint_id) return <span title={delivery.url}>the resource&apos;s webhook</span>;
  const endpoint = endpoints.find((candidate) => candidate.endpoint_id === delivery.endpoint_id);
  return <span title={delivery.url}>{endpoint ? endpointName(endpoint) : `endpoint ${delivery.endpoint_id}`}</span>;
}

/** How many of the deliveries a retry would send again are listed before it is confirmed. */
const RETRY_SHOWN = 10;

/** The deliveries a retry would send again: how many, of which status, and the first of them. */
interface RetryReview {
  which: Status | '';
  total: number;
  deliveries: DeliveryList['deliveries'];
}

/** Says how many deliveries and which before any is sent again: a retry of delivered ones makes duplicates. */
function RetryConfirmation({ review, onConfirm, onKeep }: { review: RetryReview; onConfirm: () => void; onKeep: () => void }) {
  const kind = review.which ? `${review.which} ` : '';
  if (review.total === 0)
    return (
      <div className="delivery" role="status" data-testid="retry-review">
        <p>No {kind}delivery matches the filter: nothing to retry.</p>
        <button type="button" className="secondary" onClick={onKeep}>
          Close
        </button>
      </div>
    );
  return (
    <section className="delivery" aria-labelledby="retry-review-title" data-testid="retry-review">
      <h3 id="retry-review-title">
        Retry {review.total} {kind}
        {review.total === 1 ? 'delivery' : 'deliveries'}?
      </h3>
      <p>
        Each is sent once more, now, to its endpoint
        {review.which === 'delivered' || review.which === '' ? ': an endpoint that already received a delivery gets it twice' : ''}.
      </p>
      <ul>
        {review.deliveries.map((delivery) => (
          <li key={delivery.id}>
            {delivery.event_type} about {delivery.resource_id}, {delivery.status}, created <When iso={delivery.created_at} />
          </li>
        ))}
      </ul>
      {review.total > review.deliveries.length && <p>and {review.total - review.deliveries.length} more.</p>}
      <p className="inline">
        <button type="button" onClick={onConfirm}>
          Yes, retry {review.total}
        </button>
        <button type="button" className="secondary" onClick={onKeep}>
          Keep them as they are
        </button>
      </p>
    </section>
  );
}

/** One delivery: what it sends, and each attempt with what the endpoint answered. */
function DeliveryDetail({ api, environment, session, clockMoves, deliveryId, reads }: PageContext & { deliveryId: string; reads: number }) {
  const [delivery, setDelivery] = useState<Delivery>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/v2/webhooks/deliveries/{id}', { params: { path: { id: deliveryId } } });
    setDelivery(data);
    setError(error ? (error as ApiError).message : undefined);
  }, [api, deliveryId]);

  useEffect(() => {
    void load();
  }, [load, clockMoves, reads]);

  const retry = async () => {
    const { data, error } = await api.POST('/v2/webhooks/deliveries/{id}/retry', { params: { path: { id: deliveryId } } });
    setError(error ? (error as ApiError).message : undefined);
    if (data) setNotice('One more attempt is being made now.');
  };

  if (!delivery) return error ? <Alert message={error} /> : <p>Loading…</p>;
  return (
    <article className="delivery" aria-labelledby="delivery-title">
      <div className="title-row">
        <h2 id="delivery-title">Delivery {delivery.id}</h2>
        <span data-testid="delivery-status">
          <StatusBadge status={delivery.status} />
        </span>
        {mayAct(session.role, environment) && (
          <button type="button" onClick={() => void retry()}>
            Retry now
          </button>
        )}
      </div>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <Alert message={error} />
      <dl className="terms">
        <dt>Event</dt>
        <dd>{delivery.event_type}</dd>
        <dt>Resource</dt>
        <dd>
          {delivery.resource_type} {delivery.resource_id}
        </dd>
        <dt>{withZone('Created')}</dt>
        <dd>
          <When iso={delivery.created_at} />
        </dd>
        <dt>{withZone('Next automatic attempt')}</dt>
        <dd>
          <When iso={delivery.next_attempt_at} />
        </dd>
        <dt>{withZone('Delivered')}</dt>
        <dd>
          <When iso={delivery.delivered_at} />
        </dd>
      </dl>
      <h3>Request</h3>
      <p>
        <code>POST {delivery.url}</code> <span className="muted">(the same body on every attempt, signed at each)</span>
      </p>
      <pre className="payload" tabIndex={0} aria-label="Request body">
        {JSON.stringify(delivery.payload, null, 2)}
      </pre>
      <h3>Attempts</h3>
      {delivery.attempts.length === 0 && <p>No attempt yet: the first is made within a second.</p>}
      {delivery.attempts.length > 0 && (
        <ScrollBox label="Attempts">
          <table data-testid="attempts">
            <caption className="visually-hidden">Every attempt, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{withZone('Time')}</th>
                <th scope="col">Trigger</th>
                <th scope="col">Answer</th>
                <th scope="col">Latency</th>
                <th scope="col">Response</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((attempt) => (
                <tr key={attempt.number}>
                  <td>{attempt.number}</td>
                  <td>
                    <When iso={attempt.attempted_at} />
                  </td>
                  <td>{attempt.trigger}</td>
                  <td>{attempt.status_code !== null ? `HTTP ${attempt.status_code}` : attempt.error}</td>
                  <td>{attempt.latency_ms} ms</td>
                  <td>{attempt.response_body !== null && <pre className="payload">{attempt.response_body}</pre>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </article>
  );
}

/** A signed sample of any event type, sent to a URL: it then shows in the log like any delivery. */
function TestEvent({ api, environment }: Pick<PageContext, 'api' | 'environment'>) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const problems = problemsByField(error);

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const { data, error } = await api.POST('/v2/webhooks/test-events', {
      body: { event_type: String(form.get('event_type')) as EventType, url: String(form.get('url') ?? '').trim() },
    });
    setBusy(false);
    setError(error as ApiError | undefined);
    if (data) go({ environment, page: 'webhooks', id: data.id });
  };

  return (
    <>
      <h2>Send a test event</h2>
      <Alert message={problemsAbove(problems, ['event_type', 'url'])} />
      <form onSubmit={(event) => void send(event)} className="stacked" noValidate>
        <Field id="test-event-type" label="Event to send" problems={problems.event_type}>
          <select id="test-event-type" name="event_type" defaultValue="payout.status_changed">
            {EVENT_TYPES.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </select>
        </Field>
        <Field
          id="test-event-url"
          label="Endpoint URL"
          problems={problems.url}
          hint="A sample of this event, signed with this environment's webhook secret, is sent there and kept in the log."
        >
          <input id="test-event-url" name="url" type="url" aria-describedby="test-event-url-hint" />
        </Field>
        <button type="submit" disabled={busy}>
          Send test event
        </button>
      </form>
    </>
  );
}

/** The signing secret of the environment shown, rotated by an owner through the console server (each environment has its own). */
function SigningSecret({ session, environment }: { session: Session; environment: PageContext['environment'] }) {
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<RotatedSecret>();
  const [error, setError] = useState<string>();
  const other = environment === 'sandbox' ? 'production' : 'sandbox';

  const rotate = async () => {
    const { data, error } = await consoleCall<RotatedSecret>(session, 'POST', '/console/v1/webhook-secret', { environment });
    setConfirming(false);
    setRotated(data);
    setError(error?.message);
  };

  return (
    <>
      <h2>Signing secret</h2>
      <p>
        Every {environment} webhook is signed with your account&apos;s {environment} secret (Standard Webhooks), and its body says{' '}
        <code>&quot;environment&quot;: &quot;{environment}&quot;</code>. The {other} secret is another one: keep the two apart, so a {other} webhook never
        passes this environment&apos;s check. Rotating issues a new {environment} secret at once; the previous one keeps signing beside it for 24 hours, so your
        endpoints can switch without missing a webhook.
      </p>
      {!confirming && (
        <button type="button" className="secondary" onClick={() => setConfirming(true)}>
          Rotate signing secret
        </button>
      )}
      {confirming && (
        <p className="inline" role="group" aria-label="Confirm the rotation">
          <span>
            Issue a new secret for {environment} webhooks? The {other} secret is unchanged.
          </span>
          <button type="button" className="danger" onClick={() => void rotate()}>
            Rotate now
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </p>
      )}
      {rotated && (
        <div role="status" className="notice">
          <label htmlFor="new-secret">New {rotated.environment} signing secret</label>
          <input id="new-secret" readOnly value={rotated.webhook_secret} className="secret" />
          {rotated.previous_secret_valid_until && (
            <p>
              The previous secret also signs until <When iso={rotated.previous_secret_valid_until} /> (Brasília time).
            </p>
          )}
        </div>
      )}
      <Alert message={error} />
    </>
  );
}
