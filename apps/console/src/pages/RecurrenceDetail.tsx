import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, money, problemsAbove, problemsByField, type ApiError } from '../api';
import { typedIn } from '../forms';
import { CHARGE_STATUS, JOURNEY, labelOf, PERIODICITY, RECURRENCE_STATUS, RETRY_POLICY } from '../labels';
import { nextCharge } from '../recurrences';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { CopyButton } from './CopyButton';
import { Field } from './Field';
import { When } from './When';

type Recurrence = SandboxComponents['schemas']['RecurrenceResponse'];
type Charge = SandboxComponents['schemas']['ChargeResponse'];
type Update = SandboxComponents['schemas']['UpdateRecurrenceRequest'];

/** While a page is open, what the bank and the scheduler do shows up within this. */
const REFRESH_MS = 2000;

/** One recurrence: its terms, the code the payer scans, its charges as a timeline; in the sandbox, the payer's answers. */
export function RecurrenceDetail({ api, environment, session, clockMoves, recurrenceId }: PageContext & { recurrenceId: string }) {
  const [recurrence, setRecurrence] = useState<Recurrence>();
  const [charges, setCharges] = useState<Charge[]>([]);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [changeError, setChangeError] = useState<ApiError>();
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

  /** Sends what the merchant changed in the Change form, and only that (the API wants at least one field). */
  const change = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!recurrence) return;
    const form = event.currentTarget;
    const text = typedIn(form);
    const body: Update = {};
    if (text('debtor_name') !== recurrence.debtor.name) body.debtor_name = text('debtor_name');
    if (text('start_date') !== recurrence.schedule.start_date) body.start_date = text('start_date');
    if (text('webhook') !== (recurrence.webhook ?? '')) body.webhook = text('webhook') || null;
    const adjust = (form.elements.namedItem('business_day_adjust') as HTMLInputElement).checked;
    if (adjust !== recurrence.business_day_adjust) body.business_day_adjust = adjust;
    if (text('charge_lead_days') !== String(recurrence.charge_lead_days)) body.charge_lead_days = Number(text('charge_lead_days'));
    if (Object.keys(body).length === 0) {
      setChangeError(undefined);
      setNotice('Nothing to save: every field is as it was.');
      return;
    }
    const { error } = await api.PATCH('/v2/automatic-pix/recurrences/{recurrence_id}', { params: { path }, body });
    setChangeError(error as ApiError | undefined);
    setNotice(error ? undefined : 'Changes saved.');
    await load();
  };

  const changeProblems = problemsByField(changeError);
  if (!recurrence) return error ? <Alert message={error} /> : <p>Loading…</p>;
  const ended = ['REJECTED', 'EXPIRED', 'CANCELLED'].includes(recurrence.status);
  const awaitingPayer = recurrence.status === 'CREATED';
  const next = recurrence.status === 'APPROVED' ? nextCharge(recurrence, charges) : undefined;

  return (
    <section aria-labelledby="recurrence-title">
      <div className="title-row">
        <h1 id="recurrence-title">Recurrence {recurrence.contract}</h1>
        <span className={`status status-${recurrence.status}`} data-testid="recurrence-status">
          {labelOf(RECURRENCE_STATUS, recurrence.status)}
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
            {labelOf(PERIODICITY, recurrence.schedule.periodicity)}, from {recurrence.schedule.start_date}
            {recurrence.schedule.end_date ? ` to ${recurrence.schedule.end_date}` : ''}
          </dd>
          <dt>Retries</dt>
          <dd>{labelOf(RETRY_POLICY, recurrence.retry_policy)}</dd>
          <dt>Due dates</dt>
          <dd>{recurrence.business_day_adjust ? 'Moved to the next business day' : 'Exactly as scheduled'}</dd>
          <dt>Charges created</dt>
          <dd>{recurrence.charge_lead_days} days before each due date</dd>
          <dt>Webhook</dt>
          <dd data-testid="recurrence-webhook">{recurrence.webhook ?? 'None: this recurrence sends no webhooks'}</dd>
          <dt>Authorized by</dt>
          <dd>{labelOf(JOURNEY, recurrence.journey)}</dd>
          <dt>Recurrence id</dt>
          <dd>
            <code>{recurrence.recurrence_id}</code>
          </dd>
        </dl>
        {recurrence.status === 'APPROVED' && (
          <section className="next-charge" aria-labelledby="next-charge-title" data-testid="next-charge">
            <h2 id="next-charge-title">Next charge</h2>
            {next ? (
              <p>
                <strong>{money(next.amount)}</strong> due <strong>{next.due_date}</strong>
                {next.scheduled ? ', scheduled.' : `, created ${recurrence.charge_lead_days} days before.`}
              </p>
            ) : (
              <p>None: the recurrence has no charge left to make.</p>
            )}
          </section>
        )}
        {awaitingPayer && recurrence.pix_copy_paste && (
          <figure className="qr">
            {recurrence.qrcode && <img src={recurrence.qrcode} alt="QR code the payer scans to authorize the recurrence" width={180} height={180} />}
            <figcaption>
              <label htmlFor="copy-paste">Pix copy and paste</label>
              <textarea id="copy-paste" readOnly value={recurrence.pix_copy_paste} rows={3} />
              <CopyButton key={recurrence.pix_copy_paste} text={recurrence.pix_copy_paste} label="Copy code" id="copy-paste" />
            </figcaption>
          </figure>
        )}
      </div>

      {acts && sandbox && awaitingPayer && (
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
              <span className={`status status-${charge.status}`}>{labelOf(CHARGE_STATUS, charge.status)}</span>
              {charge.paid_at && (
                <span className="muted">
                  {' '}
                  paid <When iso={charge.paid_at} testClock={sandbox} />
                </span>
              )}
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
                  chargeId={charge.charge_id}
                  dueDate={charge.due_date}
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
          <p className="muted">The amount, the frequency, the last date and the retries are fixed: to change them, cancel and create a new recurrence.</p>
          <Alert message={problemsAbove(changeProblems, ['charge_lead_days', 'debtor_name', 'start_date', 'webhook'])} />
          <form onSubmit={(event) => void change(event)} className="stacked" noValidate key={JSON.stringify(recurrence)}>
            <Field id="new-debtor-name" label="Payer's name" problems={changeProblems.debtor_name}>
              <input id="new-debtor-name" name="debtor_name" defaultValue={recurrence.debtor.name} />
            </Field>
            <Field id="new-start-date" label="First charge on" problems={changeProblems.start_date} hint="Charges not yet created follow it.">
              <input id="new-start-date" name="start_date" type="date" defaultValue={recurrence.schedule.start_date} />
            </Field>
            <Field id="new-webhook" label="Webhook URL" problems={changeProblems.webhook} hint="Empty: no webhooks. Applies to the charges not yet paid too.">
              <input id="new-webhook" name="webhook" type="url" defaultValue={recurrence.webhook ?? ''} />
            </Field>
            <Field
              id="new-lead-days"
              label="Lead days (each charge is created this many days before its due date)"
              problems={changeProblems.charge_lead_days}
              hint="3 to 10."
            >
              <input id="new-lead-days" name="charge_lead_days" type="number" min={3} max={10} defaultValue={recurrence.charge_lead_days} />
            </Field>
            <div className="check">
              <input id="new-business-day" name="business_day_adjust" type="checkbox" defaultChecked={recurrence.business_day_adjust} />
              <label htmlFor="new-business-day">Move a due date on a weekend or holiday to the next business day</label>
            </div>
            <button type="submit" className="secondary">
              Save changes
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

/** A failed charge's retry: each charge's field named by its due date, so that two failed charges' fields are told apart. */
function RetryCharge({ chargeId, dueDate, onRetry }: { chargeId: string; dueDate: string; onRetry: (date: string) => void }) {
  return (
    <form
      className="inline actions"
      onSubmit={(event) => {
        event.preventDefault();
        onRetry(String(new FormData(event.currentTarget).get('date')));
      }}
    >
      <label htmlFor={`retry-${chargeId}`}>Retry the charge due {dueDate} on</label>
      <input id={`retry-${chargeId}`} name="date" type="date" required />
      <button type="submit">Retry</button>
    </form>
  );
}
