import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { AdminComponents } from '@pixauto/api-client/admin';
import { consoleCall } from '../api';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';
import { When, withZone } from './When';

/** The request log as the console server answers it: the admin API's own shape (GET /admin/accounts/{id}/requests). */
type RequestLogPage = AdminComponents['schemas']['RequestLogPage'];
type RequestLogLine = RequestLogPage['requests'][number];

interface Filters {
  request_id?: string;
  failed?: string;
  method?: string;
  path?: string;
}

const queryOf = (filters: Filters, cursor?: string): string =>
  new URLSearchParams(
    Object.entries({ ...filters, ...(cursor && { cursor }) }).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''),
  ).toString();

/** A body as kept (JSON, redacted): indented when it is JSON, as it is otherwise. */
function shown(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * Your integration's API requests of the last days in this environment, the console's own left out: find one by its
 * request id, keep the failed ones, and read what a failed one sent and was answered.
 */
export function Requests({ environment, session }: PageContext) {
  const [filters, setFilters] = useState<Filters>({});
  const [lines, setLines] = useState<RequestLogLine[]>();
  const [next, setNext] = useState<string | null>(null);
  const [open, setOpen] = useState<string>();
  const [error, setError] = useState<string>();

  const load = useCallback(
    async (cursor?: string) => {
      const { data, error } = await consoleCall<RequestLogPage>(session, 'GET', `/console/v1/${environment}/requests?${queryOf(filters, cursor)}`);
      setError(error?.message);
      if (!data) return;
      setLines((shown) => (cursor ? [...(shown ?? []), ...data.requests] : data.requests));
      setNext(data.next_cursor);
    },
    [session, environment, filters],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    setFilters({ request_id: text('request_id'), method: text('method'), path: text('path'), failed: form.get('failed') === 'on' ? 'true' : undefined });
  };

  return (
    <section aria-labelledby="requests-title">
      <h1 id="requests-title">Requests</h1>
      <p className="muted">
        What your integration sent with its {environment} keys, newest first, kept for the last days. Every answer carries its <code>X-Request-Id</code>: paste
        it here to find the request. Failed requests keep what they sent and were answered, with secrets replaced and document numbers masked.
      </p>
      <form onSubmit={search} className="filters" aria-label="Find requests">
        <label htmlFor="request-id">Request id</label>
        <input id="request-id" name="request_id" />
        <label htmlFor="request-method">Method</label>
        <select id="request-method" name="method" defaultValue="">
          <option value="">Any</option>
          {['GET', 'POST', 'PATCH', 'DELETE'].map((method) => (
            <option key={method}>{method}</option>
          ))}
        </select>
        <label htmlFor="request-path">Path starts with</label>
        <input id="request-path" name="path" placeholder="/v2/payout" />
        <input id="request-failed" name="failed" type="checkbox" />
        <label htmlFor="request-failed">Failed only</label>
        <button type="submit">Search</button>
      </form>
      <Alert message={error} />
      {lines && lines.length === 0 && <p data-testid="no-requests">No request matches.</p>}
      {lines && lines.length > 0 && (
        <ScrollBox label="Requests found">
          <table data-testid="requests">
            <caption className="visually-hidden">Your API requests in the {environment}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">{withZone('When')}</th>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Request id</th>
                <th scope="col">Idempotency-Key</th>
                <th scope="col">Key</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <RequestRow
                  key={`${line.at}${line.request_id}`}
                  line={line}
                  open={open === line.request_id}
                  onToggle={() => setOpen(open === line.request_id ? undefined : line.request_id)}
                />
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {next && (
        <button type="button" className="secondary" onClick={() => void load(next)}>
          Older requests
        </button>
      )}
    </section>
  );
}

function RequestRow({ line, open, onToggle }: { line: RequestLogLine; open: boolean; onToggle: () => void }) {
  const failed = line.status >= 400;
  return (
    <>
      <tr className={failed ? 'failed' : undefined}>
        <td>
          <When iso={line.at} />
        </td>
        <td>
          <code>
            {line.method} {line.path}
          </code>
        </td>
        <td>{line.status}</td>
        <td>{line.duration_ms} ms</td>
        <td>
          {failed ? (
            <button type="button" className="secondary" aria-expanded={open} onClick={onToggle}>
              {line.request_id}
            </button>
          ) : (
            line.request_id
          )}
        </td>
        <td>{line.idempotency_key ?? '—'}</td>
        <td>{line.key_id}</td>
      </tr>
      {open && (
        <tr>
          <td colSpan={7} data-testid="request-bodies">
            <h2>Sent</h2>
            <pre>{line.request_body === null ? '(no body)' : shown(line.request_body)}</pre>
            <h2>Answered {line.status}</h2>
            <pre>{line.response_body === null ? '(no body)' : shown(line.response_body)}</pre>
          </td>
        </tr>
      )}
    </>
  );
}
