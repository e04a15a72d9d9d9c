import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, money, type ApiError } from '../api';
import type { PageContext } from './page-context';
import { Alert } from './Alert';

type Recurrence = SandboxComponents['schemas']['RecurrenceResponse'];
type Charge = SandboxComponents['schemas']['ChargeResponse'];

/** While a page is open, what the bank and the scheduler do shows up within this. */
const REFRESH_MS = 2000;

/** One recurrence: its terms, the code the payer scans, its charges as a timeline; in the sandbox, the payer's answers. */
export function RecurrenceDetail({ api, environment, session, clockMoves, recurrenceId }: PageContext & { recurrenceId: string }) {
  const [recurrence, setRecurrence] = useState<Recurrence>();
  const [charges, setCharges] = useState<Charge[]>([]);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const acts = mayAct(session.role, environment);
  const sandbox = environment === 'sandbox';
  const path = { recurrence_id: recurrenceId };

  const load = useCallback(async () => {
    const path = { recurrence_id: recurrenceId };
    const [read, listed] = await Promise.all([
      api.GET('/v2/automatic-pix/recurrences/{recurrence_id}', { params: { path } }),
      api.GET('/v2/automatic-pix/recurrences/{recurrence_id}/charges', { params: { path } }),
    ]);
    if (read.data) setRecurrence(read.data);
    else setError((read.error as ApiError).message);
    if (listed.data) setCharges(listed.data.charges);
  }, [api, recurrenceId]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load, clockMoves]);

  /** An action's outcome: its refusal shown, or what changed read again. */
  const act = async (what: string, request: Promise<{ error?: unknown; response: Response }>) => {
    const { error, response } = await request;
    if (error || !response.ok) {
      setNotice(undefined);
      setError((error as ApiError | undefined)?.message ?? `${what}: ${response.status}`);
    } else {
      setError(undefined);
      setNotice(`${what}: done.`);
    }
    await load();
  };

  const rename = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const debtorName = String(new FormData(event.currentTarget).get('debtor_name')).trim();
    void act('Payer renamed', api.PATCH('/v2/automatic-pix/recurrences/{recurrence_id}', { params: { path }, body: { debtor_name: debtorName } }));
  };

  if (!recurrence) return error ? <Alert message={error} /> : <p>Loading…</p>;
  const ended = ['REJECTED', 'EXPIRED', 'CANCELLED'].includes(recurrence.status);

  return (
    <section aria-labelledby="recurrence-title">
      <div className="title-row">
        <h1 id="recurrence-title">Recurrence {recurrence.contract}</h1>
        <span className={`status status-${recurrence.status}`} data-testid="recurrence-status">
          {recurrence.status}
        </span>
      </div>
      <Alert message={error} />
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <div className="columns">
        <dl className="terms">
          <dt>Payer</dt>
          <dd>
            {recurrence.debtor.name} ({recurrence.debtor.document_number})
          </dd>
          <dt>Amount</dt>
          <dd>{money(recurrence.amount)}</dd>
          <dt>Every</dt>
          <dd>
            {recurrence.schedule.periodicity}, from {recurrence.schedule.start_date}
            {recurrence.schedule.end_date ? ` to ${recurrence.schedule.end_date}` : ''}
          </dd>
          <dt>Retries</dt>
          <dd>{recurrence.retry_policy === 'NOT_ALLOWED' ? 'None' : 'Up to 3 within 7 days'}</dd>
          <dt>Journey</dt>
          <dd>{recurrence.journey}</dd>
          <dt>Recurrence id</dt>
          <dd>
            <code>{recurrence.recurrence_id}</code>
          </dd>
        </dl>
        {recurrence.pix_copy_paste && (
          <figure className="qr">
            {recurrence.qrcode && <img src={recurrence.qrcode} alt="QR code the payer scans to authorize the recurrence" width={180} height={180} />}
            <figcaption>
              <label htmlFor="copy-paste">Pix copy and paste</label>
              <textarea id="copy-paste" readOnly value={recurrence.pix_copy_paste} rows={3} />
              <button type="button" className="secondary" onClick={() => void navigator.clipboard?.writeText(recurrence.pix_copy_paste ?? '')}>
                Copy code
              </button>
            </figcaption>
          </figure>
        )}
      </div>

      {acts && sandbox && recurrence.status === 'CREATED' && (
        <section className="payer" aria-labelledby="payer-title">
          <h2 id="payer-title">Act as the payer</h2>
          <p>In the sandbox you answer for the payer's bank app.</p>
          <button
            type="button"
            onClick={() => void act('Authorized by the payer', api.POST('/v2/sandbox/recurrences/{recurrence_id}/authorize', { params: { path } }))}
          >
            Authorize
          </button>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => void act('Rejected by the payer', api.POST('/v2/sandbox/recurrences/{recurrence_id}/reject', { params: { path } }))}
          >
            Reject
          </button>
        </section>
      )}

      <section aria-labelledby="charges-title">
        <h2 id="charges-title">Charges</h2>
        {charges.length === 0 && <p>No charge yet: the first is created ahead of its due date once the payer has authorized.</p>}
        <ol className="timeline" data-testid="charges">
          {charges.map((charge) => (
            <li key={charge.charge_id} className={`charge status-line-${charge.status}`}>
              <span className="due">{charge.due_date}</span> <span>{money(charge.amount)}</span>{' '}
              <span className={`status status-${charge.status}`}>{charge.status}</span>
              {charge.paid_at && <span className="muted"> paid {charge.paid_at.slice(0, 10)}</span>}
              {acts && sandbox && charge.status === 'SCHEDULED' && (
                <span className="actions">
                  <button
                    type="button"
                    onClick={() =>
                      void act('Charge paid', api.POST('/v2/sandbox/charges/{charge_id}/pay', { params: { path: { charge_id: charge.charge_id } } }))
                    }
                  >
                    Pay
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() =>
                      void act('Charge failed', api.POST('/v2/sandbox/charges/{charge_id}/fail', { params: { path: { charge_id: charge.charge_id } } }))
                    }
                  >
                    Fail
                  </button>
                </span>
              )}
              {acts && charge.status === 'FAILED' && recurrence.retry_policy !== 'NOT_ALLOWED' && (
                <RetryCharge
                  onRetry={(date) =>
                    void act(
                      'Retry scheduled',
                      api.POST('/v2/automatic-pix/charges/{charge_id}/retry', { params: { path: { charge_id: charge.charge_id } }, body: { date } }),
                    )
                  }
                />
              )}
            </li>
          ))}
        </ol>
      </section>

      {acts && !ended && (
        <section aria-labelledby="change-title">
          <h2 id="change-title">Change</h2>
          <form onSubmit={rename} className="inline">
            <label htmlFor="new-debtor-name">Payer's name</label>
            <input id="new-debtor-name" name="debtor_name" defaultValue={recurrence.debtor.name} />
            <button type="submit" className="secondary">
              Save
            </button>
          </form>
          <button
            type="button"
            className="danger"
            onClick={() =>
              window.confirm('Cancel this recurrence? Its scheduled charges are cancelled too.') &&
              void act('Recurrence cancelled', api.PATCH('/v2/automatic-pix/recurrences/{recurrence_id}', { params: { path }, body: { status: 'CANCELLED' } }))
            }
          >
            Cancel recurrence
          </button>
        </section>
      )}
    </section>
  );
}

function RetryCharge({ onRetry }: { onRetry: (date: string) => void }) {
  return (
    <form
      className="inline actions"
      onSubmit={(event) => {
        event.preventDefault();
        onRetry(String(new FormData(event.currentTarget).get('date')));
      }}
    >
      <label htmlFor="retry-date">Retry on</label>
      <input id="retry-date" name="date" type="date" required />
      <button type="submit">Retry</button>
    </form>
  );
}
