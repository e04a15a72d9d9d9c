import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, money, problemsAbove, problemsByField, type ApiError } from '../api';
import { daysFromToday, typedIn } from '../forms';
import { DISPUTE_REASON, DISPUTE_STATUS, labelOf } from '../labels';
import { hrefOf } from '../routing';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { Field } from './Field';
import { Pager } from './Pager';
import { ScrollBox } from './ScrollBox';
import { When, withZone } from './When';

type Dispute = SandboxComponents['schemas']['DisputeResponse'];
type DisputeList = SandboxComponents['schemas']['DisputeListResponse'];
type Status = Dispute['status'];
type Evidence = { file_name: string; content_type: 'application/pdf' | 'image/png' | 'image/jpeg'; content_base64: string };

const STATUSES = Object.keys(DISPUTE_STATUS) as Status[];
const EVIDENCE_TYPES = ['application/pdf', 'image/png', 'image/jpeg'];

/** A file chosen in the form, as the API takes it: its bytes in base64 (the API checks its type and size). */
async function evidenceOf(file: File): Promise<Evidence> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { file_name: file.name, content_type: file.type as Evidence['content_type'], content_base64: btoa(binary) };
}

/** The payer's banks' claims (MED) on the Pix you received, opened in a period, of one status or all; one dispute and its defence. */
export function Disputes(context: PageContext & { disputeId?: string }) {
  return context.disputeId ? <DisputeDetail {...context} disputeId={context.disputeId} /> : <DisputeListPage {...context} />;
}

function DisputeListPage({ api, environment, clockMoves }: PageContext) {
  const [query, setQuery] = useState<{ start: string; end: string; status?: Status }>({
    start: daysFromToday(-90),
    end: daysFromToday(400),
    status: undefined,
  });
  const [page, setPage] = useState(0);
  const [list, setList] = useState<DisputeList>();
  const [error, setError] = useState<string>();
  const sandbox = environment === 'sandbox';

  useEffect(() => {
    const params = {
      start: `${query.start}T00:00:00-03:00`,
      end: `${query.end}T23:59:59-03:00`,
      page,
      page_size: 20,
      ...(query.status && { status: query.status }),
    };
    void api.GET('/v2/disputes', { params: { query: params } }).then(({ data, error }) => {
      setList(data);
      setError(error ? (error as { message: string }).message : undefined);
    });
  }, [api, query, page, clockMoves]);

  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    setQuery({ start: text('start'), end: text('end'), status: (text('status') || undefined) as Status | undefined });
    setPage(0);
  };

  return (
    <section aria-labelledby="disputes-title">
      <h1 id="disputes-title">Disputes</h1>
      <p className="muted">
        A payer&apos;s bank may claim back a Pix you received (Banco Central&apos;s MED). The disputed amount is held until the banks conclude; send your
        defence before its deadline.
      </p>
      <form onSubmit={filter} className="inline filters" aria-label="Filter disputes">
        <label htmlFor="dispute-start">Opened from</label>
        <input id="dispute-start" name="start" type="date" defaultValue={query.start} required />
        <label htmlFor="dispute-end">to</label>
        <input id="dispute-end" name="end" type="date" defaultValue={query.end} required />
        <label htmlFor="dispute-status">Status</label>
        <select id="dispute-status" name="status" defaultValue="">
          <option value="">Any</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {DISPUTE_STATUS[status]}
            </option>
          ))}
        </select>
        <button type="submit" className="secondary">
          Filter
        </button>
      </form>
      <Alert message={error} />
      {list && list.disputes.length === 0 && <p>No dispute was opened in this period.</p>}
      {list && list.disputes.length > 0 && (
        <ScrollBox label="Disputes found">
          <table data-testid="disputes">
            <caption className="visually-hidden">Disputes opened in the period, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Payment</th>
                <th scope="col">Reason</th>
                <th scope="col">Claimed</th>
                <th scope="col">Held</th>
                <th scope="col">{withZone('Defence until', sandbox)}</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list.disputes.map((dispute) => (
                <tr key={dispute.id}>
                  <td>
                    <a href={hrefOf({ environment, page: 'disputes', id: String(dispute.id) })}>{dispute.transaction.transaction_id}</a>
                  </td>
                  <td>{labelOf(DISPUTE_REASON, dispute.reason)}</td>
                  <td>{money(dispute.amount)}</td>
                  <td>{money(dispute.blocked_amount)}</td>
                  <td>
                    <When iso={dispute.defence_deadline} testClock={sandbox} />
                  </td>
                  <td>
                    <span className={`status status-${dispute.status}`}>{labelOf(DISPUTE_STATUS, dispute.status)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {list && <Pager page={page} pages={list.pagination.total_pages} onPage={setPage} />}
    </section>
  );
}

function DisputeDetail({ api, environment, session, clockMoves, disputeId }: PageContext & { disputeId: string }) {
  const [dispute, setDispute] = useState<Dispute>();
  const [error, setError] = useState<ApiError>();
  const sandbox = environment === 'sandbox';

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/v2/disputes/{id}', { params: { path: { id: disputeId } } });
    if (data) setDispute(data);
    setError(error as ApiError | undefined);
  }, [api, disputeId]);

  useEffect(() => {
    void load();
  }, [load, clockMoves]);

  const defend = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const files = Array.from((form.elements.namedItem('evidence') as HTMLInputElement).files ?? []);
    const evidence = await Promise.all(files.map(evidenceOf));
    const { data, error } = await api.POST('/v2/disputes/{id}/defence', {
      params: { path: { id: disputeId } },
      body: { text: typedIn(form)('text'), evidence },
    });
    if (data) setDispute(data);
    setError(error as ApiError | undefined);
  };

  const problems = problemsByField(error);
  if (!dispute) return error ? <Alert message={error.message} /> : <p>Loading…</p>;
  return (
    <section aria-labelledby="dispute-title">
      <div className="title-row">
        <h1 id="dispute-title">Dispute {dispute.id}</h1>
        <span className={`status status-${dispute.status}`} data-testid="dispute-status">
          {labelOf(DISPUTE_STATUS, dispute.status)}
        </span>
      </div>
      <Alert message={problemsAbove(problems, ['text', 'evidence'])} />
      <dl className="terms">
        <dt>Payment</dt>
        <dd>
          <a href={hrefOf({ environment, page: 'pix', id: String(dispute.transaction.id) })}>{dispute.transaction.transaction_id}</a> (
          {money(dispute.transaction.amount)})
        </dd>
        <dt>Reason</dt>
        <dd>{labelOf(DISPUTE_REASON, dispute.reason)}</dd>
        <dt>Claimed</dt>
        <dd>{money(dispute.amount)}</dd>
        <dt>Held while it is analysed</dt>
        <dd data-testid="dispute-held">{money(dispute.blocked_amount)}</dd>
        <dt>{withZone('Defence accepted until', sandbox)}</dt>
        <dd data-testid="dispute-deadline">
          <When iso={dispute.defence_deadline} testClock={sandbox} />
        </dd>
        {dispute.return && (
          <>
            <dt>Returned to the payer</dt>
            <dd data-testid="dispute-return">
              {money(dispute.return.amount)} ({dispute.return.natureza}, end-to-end id {dispute.return.e2e_id})
            </dd>
          </>
        )}
      </dl>
      {dispute.defence && (
        <section aria-labelledby="defence-title">
          <h2 id="defence-title">Your defence</h2>
          <p data-testid="defence-text">{dispute.defence.text}</p>
          <ul>
            {dispute.defence.evidence.map((file) => (
              <li key={file.id}>
                {file.file_name} ({file.content_type}, {file.size_bytes} bytes)
              </li>
            ))}
          </ul>
        </section>
      )}
      {dispute.status === 'OPEN' && mayAct(session.role, environment) && (
        <form onSubmit={(event) => void defend(event)} className="stacked" aria-labelledby="defend-title" noValidate>
          <h2 id="defend-title">Send your defence</h2>
          <p className="muted">One defence per dispute, before its deadline: what happened, and up to 3 files (PDF, PNG or JPEG, each at most 200 KiB).</p>
          <Field id="defence-text" label="What happened" problems={problems.text}>
            <textarea id="defence-text" name="text" rows={5} maxLength={5000} />
          </Field>
          <Field id="defence-evidence" label="Evidence files" problems={problems.evidence}>
            <input id="defence-evidence" name="evidence" type="file" multiple accept={EVIDENCE_TYPES.join(',')} />
          </Field>
          <button type="submit">Send defence</button>
        </form>
      )}
    </section>
  );
}
