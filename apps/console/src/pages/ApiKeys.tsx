import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { consoleCall, mayAct, type Environment } from '../api';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';
import { CopyButton } from './CopyButton';
import { When, withZone } from './When';

/** A key of the account as the console server lists it (GET /console/v1/api-keys): never the key itself. */
interface ListedKey {
  key_id: string;
  environment: Environment;
  read_only: boolean;
  transactions: boolean;
  /** The name given when it was created, to tell keys apart; null without one. */
  name: string | null;
  created_at: string;
  revoked_at: string | null;
  /** Its latest request, from the request log; null when none since the log's retention began (last_used_since). */
  last_used_at: string | null;
  /** The console's own key, with which it shows the merchant's data: not the user's to revoke. */
  console: boolean;
}

/** A key just created: the one answer that carries a key, shown once. */
interface CreatedKey {
  key_id: string;
  api_key: string;
  environment: Environment;
  read_only: boolean;
  name: string | null;
}

const KEYS_URL = '/console/v1/api-keys';

/**
 * A key's last use: the request log keeps only its retention, so a key older than it and silent since is "not since"
 * that day rather than "never".
 */
function LastUse({ lastUsedAt, createdAt, since }: { lastUsedAt: string | null; createdAt: string; since: string | undefined }) {
  if (lastUsedAt) return <When iso={lastUsedAt} />;
  if (since === undefined || createdAt >= since) return <>Never</>;
  return (
    <>
      Not since <When iso={since} />
    </>
  );
}

/** The account's API keys in this environment: list, create (shown once), revoke. */
export function ApiKeys({ environment, session }: PageContext) {
  const [keys, setKeys] = useState<ListedKey[]>();
  const [since, setSince] = useState<string>();
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<CreatedKey>();
  const [confirming, setConfirming] = useState<string>();
  const [busy, setBusy] = useState(false);
  const mayChange = mayAct(session.role, environment);

  const load = useCallback(async () => {
    const { data, error } = await consoleCall<{ api_keys: ListedKey[]; last_used_since: string }>(session, 'GET', KEYS_URL);
    setKeys(data?.api_keys.filter((key) => key.environment === environment));
    setSince(data?.last_used_since);
    setError(error?.message);
  }, [session, environment]);

  useEffect(() => {
    setCreated(undefined);
    void load();
  }, [load]);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const readOnly = fields.get('read_only') === 'on';
    setBusy(true);
    const { data, error } = await consoleCall<CreatedKey>(session, 'POST', KEYS_URL, {
      environment,
      read_only: readOnly,
      name: String(fields.get('name') ?? '').trim(),
    });
    setBusy(false);
    setCreated(data);
    setError(error?.message);
    if (data) form.reset();
    await load();
  };

  const revoke = async (keyId: string) => {
    setBusy(true);
    const { error } = await consoleCall(session, 'DELETE', `${KEYS_URL}/${encodeURIComponent(keyId)}`);
    setBusy(false);
    setConfirming(undefined);
    setError(error?.message);
    await load();
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <p className="muted">
        Your integration sends a key as the <code>Authorization</code> header. A {environment} key works in the {environment} only.
      </p>
      <Alert message={error} />
      {mayChange && (
        <form onSubmit={(event) => void create(event)} className="inline" aria-label="Create an API key">
          <label htmlFor="key-name">Name (optional)</label>
          <input id="key-name" name="name" maxLength={100} placeholder="Billing backend" />
          <input id="read-only" name="read_only" type="checkbox" />
          <label htmlFor="read-only">Read only (the key may read, and every change it asks is refused)</label>
          <button type="submit" disabled={busy}>
            Create key
          </button>
        </form>
      )}
      {created && (
        <div className="created-key" role="status" aria-labelledby="created-title">
          <h2 id="created-title">Your new key</h2>
          <p>
            Copy it now and keep it where your integration reads its secrets: <strong>it is shown only this once</strong>, the platform keeps only a fingerprint
            of it.
          </p>
          <label htmlFor="created-key">
            Key {created.key_id}
            {created.name && <> “{created.name}”</>} ({created.read_only ? 'read only' : 'read and write'})
          </label>
          <div className="inline">
            <input id="created-key" readOnly value={created.api_key} size={60} data-testid="created-key" />
            <CopyButton key={created.api_key} text={created.api_key} label="Copy key" id="created-key" />
            <button type="button" className="secondary" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </div>
      )}
      {keys && keys.length === 0 && <p data-testid="no-keys">There is no key in the {environment} yet.</p>}
      {keys && keys.length > 0 && (
        <ScrollBox label="API keys">
          <table data-testid="api-keys">
            <caption className="visually-hidden">The account's {environment} API keys, the newest first</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Access</th>
                <th scope="col">{withZone('Created')}</th>
                <th scope="col">{withZone('Last used')}</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.key_id} data-key-id={key.key_id}>
                  <td>
                    {key.name && (
                      <>
                        <strong data-testid="key-name">{key.name}</strong>
                        <br />
                      </>
                    )}
                    <code>{key.key_id}</code>
                    {key.console && <span className="muted"> (the console's own)</span>}
                  </td>
                  <td>
                    {key.read_only ? 'Read only' : 'Read and write'}
                    {!key.transactions && ', no receipts'}
                  </td>
                  <td>
                    <When iso={key.created_at} />
                  </td>
                  <td data-testid="last-used">
                    <LastUse lastUsedAt={key.last_used_at} createdAt={key.created_at} since={since} />
                  </td>
                  <td>
                    {key.revoked_at ? (
                      <span className="status status-CANCELLED">
                        Revoked <When iso={key.revoked_at} />
                      </span>
                    ) : (
                      <span className="status status-APPROVED">Active</span>
                    )}
                  </td>
                  <td>
                    {mayChange && !key.console && !key.revoked_at && confirming !== key.key_id && (
                      <button type="button" className="danger" aria-label={`Revoke ${key.key_id}`} onClick={() => setConfirming(key.key_id)}>
                        Revoke
                      </button>
                    )}
                    {confirming === key.key_id && (
                      <span className="inline">
                        <span id={`confirm-${key.key_id}`}>Requests with it will be refused at once, and this cannot be undone.</span>
                        <button
                          type="button"
                          className="danger"
                          disabled={busy}
                          aria-describedby={`confirm-${key.key_id}`}
                          onClick={() => void revoke(key.key_id)}
                        >
                          Yes, revoke {key.key_id}
                        </button>
                        <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
                          Keep it
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <p className="muted">
        The console shows your data with a key of its own in each environment, marked here as the console's: it stays on the console's server and cannot be
        revoked from this page. A key's last use is its latest request in the request log, which keeps the last days only.
      </p>
    </section>
  );
}
