import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, problemsAbove, problemsByField, type ApiError } from '../api';
import { DEFAULT_OVERLAP, endpointFields, changedFields, eventsInWords, eventTypeProblems, MAX_ENDPOINTS, OVERLAPS, type EndpointFields } from '../endpoints';
import { inFormWords, typedIn } from '../forms';
import { go, hrefOf } from '../routing';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { CopyButton } from './CopyButton';
import { Field } from './Field';
import { ScrollBox } from './ScrollBox';
import { When, withZone } from './When';
import { EVENT_TYPES, StatusBadge } from './Webhooks';
import './Webhooks.css';

type Endpoint = SandboxComponents['schemas']['WebhookEndpointResponse'];
type EndpointSecret = SandboxComponents['schemas']['WebhookEndpointSecretResponse'];
type Delivery = SandboxComponents['schemas']['DeliveryResponse'];
type EventType = Delivery['event_type'];

/** While a test event's first attempt is awaited, the page reads its delivery again this often. */
const TEST_REFRESH_MS = 1000;

const fieldsOf = (endpoint: Endpoint): EndpointFields => ({ url: endpoint.url, event_types: endpoint.event_types, description: endpoint.description });

function EnabledBadge({ enabled }: { enabled: boolean }) {
  return <span className={`status status-${enabled ? 'APPROVED' : 'CANCELLED'}`}>{enabled ? 'Enabled' : 'Disabled'}</span>;
}

/**
 * Webhook endpoints: the URLs of the merchant's own that receive the account's events in this environment, each with
 * the events it wants and a signing secret of its own. Add, edit, enable or disable, delete; reveal and rotate the
 * secret (owners); send a test event and see what the endpoint answered.
 */
export function WebhookEndpoints({ api, environment, session, clockMoves, endpointId }: PageContext & { endpointId?: string }) {
  const [endpoints, setEndpoints] = useState<Endpoint[]>();
  const [error, setError] = useState<string>();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState(false);
  const [created, setCreated] = useState<Endpoint & { secret: string }>();
  const [reads, setReads] = useState(0);
  const acts = mayAct(session.role, environment);

  useEffect(() => {
    void api.GET('/v2/webhooks/endpoints').then(({ data, error }) => {
      setEndpoints(data?.endpoints);
      setError(error ? (error as ApiError).message : undefined);
    });
  }, [api, clockMoves, reads]);

  // Another endpoint opened: its edit form closed, the add form kept as it was.
  useEffect(() => setEditing(false), [endpointId]);

  const changed = () => setReads((n) => n + 1);
  const full = endpoints !== undefined && endpoints.length >= MAX_ENDPOINTS;

  return (
    <section aria-labelledby="endpoints-title">
      <h1 id="endpoints-title">Webhook endpoints</h1>
      <p className="muted">
        Each endpoint is a URL of yours that receives your account&apos;s {environment} events (all of them, or those you choose), signed with a secret of its
        own. A resource&apos;s own webhook URL keeps receiving its events too. Every delivery is in the{' '}
        <a href={hrefOf({ environment, page: 'webhooks' })}>delivery log</a>.
      </p>
      {endpointId && (
        <EndpointDetail
          key={`${environment}/${endpointId}`}
          {...{ api, environment, session, clockMoves, endpointId, reads, editing }}
          onEdit={() => {
            setAdding(false);
            setEditing(true);
          }}
          onEdited={() => setEditing(false)}
          onChanged={changed}
        />
      )}
      <h2>Endpoints</h2>
      <Alert message={error} />
      {acts && !adding && (
        <p className="inline">
          <button
            type="button"
            disabled={full}
            aria-describedby={full ? 'endpoints-full' : undefined}
            onClick={() => {
              setEditing(false);
              setCreated(undefined);
              setAdding(true);
            }}
          >
            Add an endpoint
          </button>
          {full && (
            <span id="endpoints-full" className="muted">
              An account has at most {MAX_ENDPOINTS} endpoints in each environment: delete one to add another.
            </span>
          )}
        </p>
      )}
      {acts && adding && (
        <AddEndpoint
          api={api}
          onAdded={(endpoint) => {
            setAdding(false);
            setCreated(endpoint);
            changed();
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {created && (
        <div className="created-key" role="status" aria-labelledby="created-endpoint-title">
          <h3 id="created-endpoint-title">Endpoint added</h3>
          <p>
            <a href={hrefOf({ environment, page: 'webhook-endpoints', id: created.endpoint_id })}>{created.url}</a> receives{' '}
            {created.event_types.length === 0 ? 'every event' : eventsInWords(created.event_types)}, signed with this secret: give it to your endpoint to check
            each webhook&apos;s signature.
          </p>
          <label htmlFor="created-endpoint-secret">Signing secret of the new endpoint</label>
          <div className="inline">
            <input id="created-endpoint-secret" readOnly value={created.secret} className="secret" data-testid="created-endpoint-secret" />
            <CopyButton key={created.secret} text={created.secret} label="Copy secret" id="created-endpoint-secret" />
            <button type="button" className="secondary" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </div>
      )}
      {endpoints && endpoints.length === 0 && (
        <p data-testid="no-endpoints">There is no endpoint in the {environment} yet: only the webhook URLs given on resources, if any, receive events.</p>
      )}
      {endpoints && endpoints.length > 0 && (
        <ScrollBox label="Endpoints">
          <table data-testid="endpoints">
            <caption className="visually-hidden">The account&apos;s {environment} webhook endpoints, the oldest first</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Description</th>
                <th scope="col">Status</th>
                <th scope="col">{withZone('Created')}</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.endpoint_id} data-endpoint-id={endpoint.endpoint_id} aria-current={endpoint.endpoint_id === endpointId ? 'true' : undefined}>
                  <td>
                    <a href={hrefOf({ environment, page: 'webhook-endpoints', id: endpoint.endpoint_id })}>{endpoint.url}</a>
                  </td>
                  <td>{eventsInWords(endpoint.event_types)}</td>
                  <td>{endpoint.description ?? ''}</td>
                  <td>
                    <EnabledBadge enabled={endpoint.enabled} />
                  </td>
                  <td>
                    <When iso={endpoint.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {endpoints && endpoints.length > 0 && (
        <p className="muted">
          {endpoints.length} of at most {MAX_ENDPOINTS} endpoints in the {environment}.
        </p>
      )}
    </section>
  );
}

/** The add form: the endpoint's URL, its events, a description; its secret comes back once. */
function AddEndpoint({
  api,
  onAdded,
  onCancel,
}: Pick<PageContext, 'api'> & { onAdded: (endpoint: Endpoint & { secret: string }) => void; onCancel: () => void }) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);

  const add = async (fields: EndpointFields) => {
    setBusy(true);
    const { data, error } = await api.POST('/v2/webhooks/endpoints', { body: { ...fields, event_types: fields.event_types as EventType[] } });
    setBusy(false);
    setError(error as ApiError | undefined);
    if (data) onAdded(data);
  };

  return (
    <section className="delivery" aria-labelledby="add-endpoint-title">
      <h3 id="add-endpoint-title">Add an endpoint</h3>
      <EndpointForm error={error} busy={busy} submit="Add endpoint" onSubmit={(fields) => void add(fields)} onCancel={onCancel} />
    </section>
  );
}

/**
 * The fields of an endpoint, to add one or to edit one: its URL, "All events" or the event types chosen from the
 * catalogue, and a description. The API's problems beside their field.
 */
function EndpointForm({
  initial,
  error,
  busy,
  submit,
  onSubmit,
  onCancel,
}: {
  initial?: EndpointFields;
  error: ApiError | undefined;
  busy: boolean;
  submit: string;
  onSubmit: (fields: EndpointFields) => void;
  onCancel: () => void;
}) {
  const [all, setAll] = useState((initial?.event_types.length ?? 0) === 0);
  const [chosen, setChosen] = useState<string[]>(initial?.event_types ?? []);
  const problems = problemsByField(error);
  const eventProblems = eventTypeProblems(problems);
  const shown = ['url', 'description', ...Object.keys(problems).filter((field) => field === 'event_types' || field.startsWith('event_types.'))];

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    onSubmit(endpointFields({ url: text('url'), all, chosen, description: text('description') }));
  };

  const toggle = (type: string, on: boolean) => setChosen((held) => (on ? [...held.filter((t) => t !== type), type] : held.filter((t) => t !== type)));

  return (
    <form onSubmit={send} className="stacked" noValidate aria-label={submit}>
      <Alert message={problemsAbove(problems, shown)} />
      <Field id="endpoint-url" label="Endpoint URL" problems={problems.url} hint="Where each webhook is sent (POST); in production, a public https URL.">
        <input
          id="endpoint-url"
          name="url"
          type="url"
          maxLength={255}
          defaultValue={initial?.url}
          autoComplete="off"
          spellCheck={false}
          aria-describedby="endpoint-url-hint"
        />
      </Field>
      <fieldset className={`field events${eventProblems.length > 0 ? ' invalid' : ''}`}>
        <legend>Events it receives</legend>
        <div className="check">
          <input id="events-all" type="radio" name="events" checked={all} onChange={() => setAll(true)} />
          <label htmlFor="events-all">All events (those added later too)</label>
        </div>
        <div className="check">
          <input id="events-chosen" type="radio" name="events" checked={!all} onChange={() => setAll(false)} />
          <label htmlFor="events-chosen">Only the events chosen below</label>
        </div>
        {!all && (
          <div className="event-types" role="group" aria-label="Event types">
            {EVENT_TYPES.map((type) => (
              <div className="check" key={type}>
                <input
                  id={`event-${type}`}
                  type="checkbox"
                  name="event_types"
                  value={type}
                  checked={chosen.includes(type)}
                  onChange={(event) => toggle(type, event.target.checked)}
                />
                <label htmlFor={`event-${type}`}>{type}</label>
              </div>
            ))}
          </div>
        )}
        {eventProblems.map((problem) => (
          <small key={problem} className="error" role="alert">
            {inFormWords(problem, 'Events')}
          </small>
        ))}
      </fieldset>
      <Field
        id="endpoint-description"
        label="Description (optional)"
        problems={problems.description}
        hint="To tell your endpoints apart: 200 characters at most."
      >
        <input
          id="endpoint-description"
          name="description"
          maxLength={200}
          defaultValue={initial?.description ?? ''}
          aria-describedby="endpoint-description-hint"
        />
      </Field>
      <p className="inline">
        <button type="submit" disabled={busy}>
          {submit}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}

/** One endpoint: what it is, its changes, its signing secret and a test event. */
function EndpointDetail({
  api,
  environment,
  session,
  clockMoves,
  endpointId,
  reads,
  editing,
  onEdit,
  onEdited,
  onChanged,
}: PageContext & { endpointId: string; reads: number; editing: boolean; onEdit: () => void; onEdited: () => void; onChanged: () => void }) {
  const [endpoint, setEndpoint] = useState<Endpoint>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [editError, setEditError] = useState<ApiError>();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const acts = mayAct(session.role, environment);
  const path = { endpoint_id: endpointId };

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/v2/webhooks/endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpointId } } });
    if (data) setEndpoint(data);
    setError(error ? (error as ApiError).message : undefined);
  }, [api, endpointId]);

  useEffect(() => {
    void load();
  }, [load, clockMoves, reads]);

  const save = async (fields: EndpointFields) => {
    if (!endpoint) return;
    const { event_types: eventTypes, ...body } = changedFields(fieldsOf(endpoint), fields);
    if (Object.keys(body).length === 0 && !eventTypes) {
      setEditError(undefined);
      setNotice('Nothing to save: every field is as it was.');
      onEdited();
      return;
    }
    setBusy(true);
    const { data, error } = await api.PATCH('/v2/webhooks/endpoints/{endpoint_id}', {
      params: { path },
      body: { ...body, ...(eventTypes && { event_types: eventTypes as EventType[] }) },
    });
    setBusy(false);
    setEditError(error as ApiError | undefined);
    if (data) {
      setEndpoint(data);
      setNotice('Changes saved.');
      onEdited();
      onChanged();
    }
  };

  const switchTo = async (enabled: boolean) => {
    setBusy(true);
    const { data, error } = await api.PATCH('/v2/webhooks/endpoints/{endpoint_id}', { params: { path }, body: { enabled } });
    setBusy(false);
    setError(error ? (error as ApiError).message : undefined);
    if (data) {
      setEndpoint(data);
      setNotice(
        enabled
          ? 'Enabled: it receives its events again from now on.'
          : 'Disabled: it receives no event until it is enabled again, and its pending deliveries are cancelled.',
      );
      onChanged();
    }
  };

  const remove = async () => {
    setBusy(true);
    const { error, response } = await api.DELETE('/v2/webhooks/endpoints/{endpoint_id}', { params: { path } });
    setBusy(false);
    setConfirmingDelete(false);
    if (error || !response.ok) return setError((error as ApiError | undefined)?.message ?? `Delete: ${response.status}`);
    onChanged();
    go({ environment, page: 'webhook-endpoints' });
  };

  if (!endpoint) return error ? <Alert message={error} /> : <p>Loading…</p>;
  return (
    <article className="delivery" aria-labelledby="endpoint-title" data-testid="endpoint">
      <div className="title-row">
        <h2 id="endpoint-title">{endpoint.description ?? 'Endpoint'}</h2>
        <span data-testid="endpoint-status">
          <EnabledBadge enabled={endpoint.enabled} />
        </span>
      </div>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <Alert message={error} />
      {!editing && (
        <dl className="terms">
          <dt>URL</dt>
          <dd data-testid="endpoint-url">{endpoint.url}</dd>
          <dt>Events</dt>
          <dd data-testid="endpoint-events">{eventsInWords(endpoint.event_types)}</dd>
          <dt>Description</dt>
          <dd>{endpoint.description ?? '—'}</dd>
          <dt>{withZone('Created')}</dt>
          <dd>
            <When iso={endpoint.created_at} />
          </dd>
          <dt>{withZone('Last changed')}</dt>
          <dd>
            <When iso={endpoint.updated_at} />
          </dd>
          <dt>Endpoint id</dt>
          <dd>
            <code>{endpoint.endpoint_id}</code>
          </dd>
        </dl>
      )}
      {editing && (
        <EndpointForm
          initial={fieldsOf(endpoint)}
          error={editError}
          busy={busy}
          submit="Save changes"
          onSubmit={(fields) => void save(fields)}
          onCancel={() => {
            setEditError(undefined);
            onEdited();
          }}
        />
      )}
      {acts && !editing && (
        <p className="inline" role="group" aria-label="Change this endpoint">
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setNotice(undefined);
              onEdit();
            }}
          >
            Edit
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => void switchTo(!endpoint.enabled)}>
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </button>
          {!confirmingDelete && (
            <button type="button" className="danger" onClick={() => setConfirmingDelete(true)}>
              Delete…
            </button>
          )}
        </p>
      )}
      {confirmingDelete && (
        <p className="inline" role="group" aria-label="Confirm the deletion">
          <span id="confirm-delete">Delete this endpoint? It receives nothing more, its pending deliveries are cancelled, and this cannot be undone.</span>
          <button type="button" className="danger" disabled={busy} aria-describedby="confirm-delete" onClick={() => void remove()}>
            Yes, delete it
          </button>
          <button type="button" className="secondary" onClick={() => setConfirmingDelete(false)}>
            Keep it
          </button>
        </p>
      )}
      <EndpointSecret {...{ api, environment, session, endpointId }} />
      {acts && <EndpointTestEvent {...{ api, environment, endpoint }} />}
    </article>
  );
}

/** The endpoint's signing secret, revealed and rotated by an owner only (the console server refuses anyone else). */
function EndpointSecret({ api, session, endpointId }: Pick<PageContext, 'api' | 'environment' | 'session'> & { endpointId: string }) {
  const [revealed, setRevealed] = useState<EndpointSecret>();
  const [rotated, setRotated] = useState<EndpointSecret>();
  const [confirming, setConfirming] = useState<number>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const path = { endpoint_id: endpointId };

  if (session.role !== 'owner')
    return (
      <>
        <h3>Signing secret</h3>
        <p className="muted" data-testid="secret-owners-only">
          Each endpoint&apos;s webhooks are signed with a secret of its own (Standard Webhooks). Only an owner of your account reveals or rotates it.
        </p>
      </>
    );

  const reveal = async () => {
    setBusy(true);
    const { data, error } = await api.GET('/v2/webhooks/endpoints/{endpoint_id}/secret', { params: { path } });
    setBusy(false);
    setRevealed(data);
    setError(error ? (error as ApiError).message : undefined);
  };

  const ask = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setRotated(undefined);
    setConfirming(Number(new FormData(event.currentTarget).get('previous_secret_expires_in_hours')));
  };

  const rotate = async (hours: number) => {
    setBusy(true);
    const { data, error } = await api.POST('/v2/webhooks/endpoints/{endpoint_id}/secret/rotate', {
      params: { path },
      body: { previous_secret_expires_in_hours: hours },
    });
    setBusy(false);
    setConfirming(undefined);
    setRevealed(undefined);
    setRotated(data);
    setError(error ? (error as ApiError).message : undefined);
  };

  const overlap = OVERLAPS.find(([hours]) => hours === confirming)?.[1];

  return (
    <>
      <h3>Signing secret</h3>
      <p className="muted">
        Each webhook to this endpoint is signed with its own secret (Standard Webhooks): your endpoint checks the signature with it. Rotating issues a new one
        at once; the previous one can keep signing beside it for a while, so your endpoint switches without missing a webhook.
      </p>
      {!revealed && (
        <button type="button" className="secondary" disabled={busy} onClick={() => void reveal()}>
          Reveal secret
        </button>
      )}
      {revealed && (
        <div className="created-key">
          <label htmlFor="endpoint-secret">Signing secret</label>
          <div className="inline">
            <input id="endpoint-secret" readOnly value={revealed.secret} className="secret" data-testid="endpoint-secret" />
            <CopyButton key={revealed.secret} text={revealed.secret} label="Copy secret" id="endpoint-secret" />
            <button type="button" className="secondary" onClick={() => setRevealed(undefined)}>
              Hide
            </button>
          </div>
          {revealed.previous_secret_valid_until && (
            <p>
              The previous secret also signs until <When iso={revealed.previous_secret_valid_until} /> (Brasília time).
            </p>
          )}
        </div>
      )}
      {confirming === undefined && (
        <form className="inline" aria-label="Rotate the signing secret" onSubmit={ask}>
          <label htmlFor="rotate-overlap">Keep the previous secret signing for</label>
          <select id="rotate-overlap" name="previous_secret_expires_in_hours" defaultValue={DEFAULT_OVERLAP}>
            {OVERLAPS.map(([hours, words]) => (
              <option key={hours} value={hours}>
                {words}
              </option>
            ))}
          </select>
          <button type="submit" className="secondary">
            Rotate secret…
          </button>
        </form>
      )}
      {confirming !== undefined && (
        <p className="inline" role="group" aria-label="Confirm the rotation">
          <span>
            Issue a new secret for this endpoint?{' '}
            {confirming === 0 ? 'The current one stops signing at once.' : `The current one keeps signing beside it for ${overlap ?? `${confirming} hours`}.`}
          </span>
          <button type="button" className="danger" disabled={busy} onClick={() => void rotate(confirming)}>
            Rotate now
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
            Cancel
          </button>
        </p>
      )}
      {rotated && (
        <div role="status" className="notice created-key" data-testid="rotated-secret">
          <label htmlFor="rotated-endpoint-secret">New signing secret</label>
          <div className="inline">
            <input id="rotated-endpoint-secret" readOnly value={rotated.secret} className="secret" />
            <CopyButton key={rotated.secret} text={rotated.secret} label="Copy new secret" id="rotated-endpoint-secret" />
          </div>
          {rotated.previous_secret_valid_until ? (
            <p>
              The previous secret also signs until <When iso={rotated.previous_secret_valid_until} /> (Brasília time): each webhook until then carries both
              signatures.
            </p>
          ) : (
            <p>The previous secret no longer signs: only the new one does.</p>
          )}
        </div>
      )}
      <Alert message={error} />
    </>
  );
}

/** A signed sample event sent to this endpoint with its secret, and what the endpoint answered. */
function EndpointTestEvent({ api, environment, endpoint }: Pick<PageContext, 'api' | 'environment'> & { endpoint: Endpoint }) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [delivery, setDelivery] = useState<Delivery>();
  const problems = problemsByField(error);
  const types = endpoint.event_types.length > 0 ? endpoint.event_types : EVENT_TYPES;
  const deliveryId = delivery?.id;
  const awaiting = delivery !== undefined && delivery.attempts.length === 0;

  // Until the first attempt is made (within a second), its delivery is read again.
  useEffect(() => {
    if (!deliveryId || !awaiting) return;
    const timer = setInterval(() => {
      void api.GET('/v2/webhooks/deliveries/{id}', { params: { path: { id: deliveryId } } }).then(({ data }) => data && setDelivery(data));
    }, TEST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [api, deliveryId, awaiting]);

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setDelivery(undefined);
    const { data, error } = await api.POST('/v2/webhooks/endpoints/{endpoint_id}/test', {
      params: { path: { endpoint_id: endpoint.endpoint_id } },
      body: { event_type: String(new FormData(event.currentTarget).get('event_type')) as EventType },
    });
    setBusy(false);
    setError(error as ApiError | undefined);
    if (data) setDelivery(data);
  };

  const last = delivery?.attempts.at(-1);
  return (
    <>
      <h3>Send a test event</h3>
      <Alert message={problemsAbove(problems, ['event_type'])} />
      {!endpoint.enabled && (
        <p className="muted" data-testid="test-disabled">
          This endpoint is disabled: enable it to send it a test event.
        </p>
      )}
      {endpoint.enabled && (
        <form onSubmit={(event) => void send(event)} className="inline" aria-label="Send a test event to this endpoint" noValidate>
          <Field id="endpoint-test-type" label="Event to send" problems={problems.event_type}>
            <select id="endpoint-test-type" name="event_type" defaultValue={types[0]}>
              {types.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          </Field>
          <button type="submit" disabled={busy}>
            Send test event
          </button>
        </form>
      )}
      {delivery && (
        <div role="status" className="created-key" data-testid="test-result">
          <p>
            {delivery.event_type} sent as delivery <a href={hrefOf({ environment, page: 'webhooks', id: delivery.id })}>{delivery.id}</a>:{' '}
            <StatusBadge status={delivery.status} />
          </p>
          {!last && <p>Awaiting its first attempt (within a second)…</p>}
          {last && (
            <p data-testid="test-answer">
              The endpoint answered {last.status_code !== null ? `HTTP ${last.status_code}` : `nothing: ${last.error ?? 'no answer'}`} in {last.latency_ms} ms.
            </p>
          )}
          {last?.response_body && <pre className="payload">{last.response_body}</pre>}
        </div>
      )}
    </>
  );
}
