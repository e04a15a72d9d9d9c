import { useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, money, problemsAbove, problemsByField, type ApiError } from '../api';
import { go, hrefOf } from '../routing';
import { brasiliaDays, dayBefore, daysFromToday, reais, typedIn } from '../forms';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';
import { Field, DOCUMENT_HINT, DocumentInput } from './Field';
import { FindOne, type OneOf } from './FindOne';
import { Pager } from './Pager';
import { When, withZone } from './When';
import { labelOf, PIX_CHARGE_STATUS } from '../labels';

type PixChargeList = SandboxComponents['schemas']['PixChargeListResponse'];
type PixChargeStatus = SandboxComponents['schemas']['PixChargeStatus'];

/** The statuses in the order a charge goes through them. */
const STATUSES: PixChargeStatus[] = ['PENDING', 'PAID', 'EXPIRED'];
const PAGE_SIZE = 20;

/** The list opens on the 30 days up to the environment's today (the sandbox's test clock). */
const DAYS_SHOWN = 30;

/** What the list shows: the charges created in whole Brasília days, of one status or all, a page at a time. */
interface Search {
  from: string;
  to: string;
  status: PixChargeStatus | '';
  page: number;
}

/** Cash-in: the Pix charges of a period, a new one the payer pays by its QR code, and finding one by its id or your transaction_id. */
export function PixCharges({ api, environment, session, clockMoves }: PageContext) {
  const [search, setSearch] = useState<Search>();
  const [list, setList] = useState<PixChargeList>();
  const [listError, setListError] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const problems = problemsByField(error);

  useEffect(() => {
    const lastDays = (today: string): Search => ({ from: dayBefore(today, DAYS_SHOWN - 1), to: today, status: '', page: 0 });
    if (environment === 'production') setSearch((chosen) => chosen ?? lastDays(daysFromToday(0)));
    else void api.GET('/v2/sandbox/clock').then(({ data }) => setSearch((chosen) => chosen ?? lastDays(data?.today ?? daysFromToday(0))));
  }, [api, environment]);

  useEffect(() => {
    if (!search) return;
    const query = { ...brasiliaDays(search.from, search.to), page: search.page, page_size: PAGE_SIZE, ...(search.status && { status: search.status }) };
    void api.GET('/v2/pix/charges', { params: { query } }).then(({ data, error }) => {
      setList(data);
      setListError(error ? (error as ApiError).message : undefined);
    });
  }, [api, search, clockMoves]);

  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    setSearch({ from: text('from'), to: text('to'), status: text('status') as Search['status'], page: 0 });
  };

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    setBusy(true);
    const { data, error } = await api.POST('/v2/pix', {
      body: {
        transaction_id: text('transaction_id'),
        amount: reais(text('amount')),
        payer: { document_number: text('payer_document'), name: text('payer_name') },
        ...(text('description') && { description: text('description') }),
        ...(text('webhook') && { webhook: text('webhook') }),
      },
    });
    setBusy(false);
    if (data) go({ environment, page: 'pix', id: String(data.id) });
    else setError(error as ApiError);
  };

  const find = async (query: OneOf) => {
    const { data, error } = await api.GET('/v2/pix', { params: { query } });
    if (data) go({ environment, page: 'pix', id: String(data.id) });
    return (error as ApiError | undefined)?.message;
  };

  return (
    <section aria-labelledby="pix-title">
      <h1 id="pix-title">Pix charges</h1>
      <FindOne name="Find a Pix charge" find={find} />

      {search && (
        <form onSubmit={filter} className="inline filters" aria-label="Pix charges of a period">
          <label htmlFor="pix-from">Created from</label>
          <input id="pix-from" name="from" type="date" defaultValue={search.from} required />
          <label htmlFor="pix-to">to</label>
          <input id="pix-to" name="to" type="date" defaultValue={search.to} required />
          <label htmlFor="pix-status-filter">Status</label>
          <select id="pix-status-filter" name="status" defaultValue="">
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {PIX_CHARGE_STATUS[status]}
              </option>
            ))}
          </select>
          <button type="submit" className="secondary">
            Filter
          </button>
        </form>
      )}
      <Alert message={listError} />
      {search && list && (
        <>
          <p className="muted" data-testid="pix-charges-found">
            {`${list.pagination.total_items} ${list.pagination.total_items === 1 ? 'Pix charge' : 'Pix charges'} ${search.status && `(${PIX_CHARGE_STATUS[search.status].toLowerCase()}) `}`}
            created from {search.from} to {search.to} (Brasília time)
          </p>
          {list.charges.length > 0 && <PixChargeTable charges={list.charges} environment={environment} />}
          <Pager page={search.page} pages={list.pagination.total_pages} onPage={(page) => setSearch({ ...search, page })} />
        </>
      )}
      {mayAct(session.role, environment) && (
        <>
          <h2>New Pix charge</h2>
          <Alert message={problemsAbove(problems, ['amount', 'description', 'payer.document_number', 'payer.name', 'transaction_id', 'webhook'])} />
          <form onSubmit={(event) => void create(event)} className="stacked" noValidate>
            <Field id="pix-transaction-id" label="Your identifier (transaction_id)" problems={problems.transaction_id}>
              <input id="pix-transaction-id" name="transaction_id" />
            </Field>
            <Field id="pix-amount" label="Amount (R$)" problems={problems.amount}>
              <input id="pix-amount" name="amount" inputMode="decimal" />
            </Field>
            <Field id="payer-document" label="Payer's CPF or CNPJ" problems={problems['payer.document_number']} hint={DOCUMENT_HINT}>
              <DocumentInput id="payer-document" name="payer_document" />
            </Field>
            <Field id="payer-name" label="Payer's name" problems={problems['payer.name']}>
              <input id="payer-name" name="payer_name" />
            </Field>
            <Field id="pix-description" label="Description (optional)" problems={problems.description}>
              <input id="pix-description" name="description" />
            </Field>
            <Field id="pix-webhook" label="Webhook URL (optional)" problems={problems.webhook} hint="Receives the charge's events and its refunds'.">
              <input id="pix-webhook" name="webhook" type="url" />
            </Field>
            <button type="submit" disabled={busy}>
              Create Pix charge
            </button>
          </form>
        </>
      )}
    </section>
  );
}

function PixChargeTable({ charges, environment }: { charges: PixChargeList['charges']; environment: PageContext['environment'] }) {
  return (
    <ScrollBox label="Pix charges found">
      <table data-testid="pix-charges">
        <caption className="visually-hidden">Pix charges created in the period, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Transaction id</th>
            <th scope="col">Payer</th>
            <th scope="col">Amount</th>
            <th scope="col">{withZone('Created', environment === 'sandbox')}</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {charges.map((charge) => (
            <tr key={charge.id}>
              <td>
                <a href={hrefOf({ environment, page: 'pix', id: String(charge.id) })}>{charge.transaction_id}</a>
              </td>
              <td>{charge.payer ? `${charge.payer.name} (${charge.payer.document_number})` : ''}</td>
              <td>{money(charge.amount)}</td>
              <td>
                <When iso={charge.created_at} testClock={environment === 'sandbox'} />
              </td>
              <td>
                <span className={`status status-${charge.status}`}>{labelOf(PIX_CHARGE_STATUS, charge.status)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
