import { useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, money, problemsAbove, problemsByField, type ApiError } from '../api';
import { saveFile } from '../download';
import { go, hrefOf } from '../routing';
import { brasiliaDaysInUtc, daysFromToday, reais, typedIn } from '../forms';
import type { PageContext } from './page-context';
import { ScrollBox } from './ScrollBox';
import { Alert } from './Alert';
import { Field, DOCUMENT_HINT, DocumentInput } from './Field';
import { FindOne, type OneOf } from './FindOne';
import { Pager } from './Pager';
import { When, withZone } from './When';
import { labelOf, PAYOUT_STATUS } from '../labels';

export type Payout = SandboxComponents['schemas']['PayoutResponse'];
type StatusCode = SandboxComponents['schemas']['PayoutStatusCode'];

/** The status's class, by the API's names (the CSS colours statuses by them). */
const STATUS_CLASS: Record<StatusCode, string> = { 0: 'CREATED', 4: 'PROCESSING', 1: 'COMPLETED', 2: 'CANCELED', 3: 'REJECTED' };

export function PayoutStatus({ status, testId }: { status: StatusCode; testId?: string }) {
  return (
    <span className={`status status-${STATUS_CLASS[status]}`} data-testid={testId}>
      {labelOf(PAYOUT_STATUS, status)}
    </span>
  );
}

/** The statuses in the order a payout goes through them. */
const LIFECYCLE: StatusCode[] = [0, 4, 1, 2, 3];
const PAGE_SIZE = 20;

/** What the lookup shows: the payouts of a period (a page at a time, by status if chosen) or a customer's whole history. */
type Search = { kind: 'period'; from: string; to: string; status: string; page: number } | { kind: 'customer'; document: string };
interface Found {
  payouts: Payout[];
  total: number;
  pages: number;
}

/** Cash-out: paying a Pix key or a bank account, and finding payouts by id, by period and by customer. */
export function Payouts({ api, environment, session, clockMoves }: PageContext) {
  const [search, setSearch] = useState<Search>();
  // Until the merchant picks a period, the list shows the environment's today: in the sandbox, the test clock's.
  const [picked, setPicked] = useState(false);
  /** The days the period form shows: the last period searched. */
  const [period, setPeriod] = useState<{ from: string; to: string }>();
  const [found, setFound] = useState<Found>();
  const [searchError, setSearchError] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [destination, setDestination] = useState<'pix_key' | 'bank'>('pix_key');
  const problems = problemsByField(error);

  useEffect(() => {
    if (picked) return;
    const today = (day: string) => {
      setPeriod({ from: day, to: day });
      setSearch({ kind: 'period', from: day, to: day, status: '', page: 0 });
    };
    if (environment === 'production') today(daysFromToday(0));
    else void api.GET('/v2/sandbox/clock').then(({ data }) => today(data?.today ?? daysFromToday(0)));
  }, [api, environment, clockMoves, picked]);

  useEffect(() => {
    if (!search) return;
    const answer =
      search.kind === 'period'
        ? api
            .GET('/v2/withdrawals/period', {
              params: {
                query: {
                  ...brasiliaDaysInUtc(search.from, search.to),
                  page: search.page + 1,
                  size: PAGE_SIZE,
                  ...(search.status && { status: search.status as `${StatusCode}` }),
                },
              },
            })
            .then(({ data, error }) => ({ found: data && { payouts: data.data, total: data.count_data, pages: data.count_pages }, error }))
        : api
            .GET('/v2/withdrawals/customer', { params: { query: { document_number: search.document } } })
            .then(({ data, error }) => ({ found: data && { payouts: data.data, total: data.total, pages: 1 }, error }));
    void answer.then(({ found, error }) => {
      setFound(found);
      setSearchError(error ? (error as ApiError).message : undefined);
    });
  }, [api, search, clockMoves]);

  const byPeriod = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    setPicked(true);
    setPeriod({ from: text('from'), to: text('to') });
    setSearch({ kind: 'period', from: text('from'), to: text('to'), status: text('status'), page: 0 });
  };

  const byCustomer = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPicked(true);
    setSearch({ kind: 'customer', document: typedIn(event.currentTarget)('customer') });
  };

  const find = async (query: OneOf) => {
    const { data, error } = await api.GET('/v2/withdrawals', { params: { query } });
    if (data) go({ environment, page: 'payouts', id: String(data.id) });
    return (error as ApiError | undefined)?.message;
  };

  const csv = async () => {
    if (search?.kind !== 'period') return;
    const { data, error } = await api.GET('/v2/withdrawals/period/csv', { params: { query: brasiliaDaysInUtc(search.from, search.to) }, parseAs: 'blob' });
    if (data) saveFile(data, `payouts-${search.from}-to-${search.to}.csv`);
    else setSearchError((error as ApiError).message);
  };

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    const webhook = text('webhook');
    setBusy(true);
    const { data, error } = await api.POST('/v2/payout/pix', {
      body: {
        transaction_id: text('transaction_id'),
        amount: reais(text('amount')),
        name: text('name'),
        document_number: text('document_number'),
        ...(destination === 'pix_key'
          ? { pix_key: text('pix_key') }
          : { bank: { ispb: text('ispb'), account_agency: text('account_agency'), account_number: text('account_number') } }),
        ...(webhook && { webhook }),
      },
    });
    setBusy(false);
    if (data) go({ environment, page: 'payouts', id: String(data.id) });
    else setError(error as ApiError);
  };

  return (
    <section aria-labelledby="payouts-title">
      <h1 id="payouts-title">Payouts</h1>
      <FindOne name="Find a payout" find={find} />

      <form onSubmit={byPeriod} className="inline filters" aria-label="Payouts of a period" key={period && `${period.from}/${period.to}`}>
        <label htmlFor="payouts-from">Created from</label>
        <input id="payouts-from" name="from" type="date" defaultValue={period?.from} required />
        <label htmlFor="payouts-to">to</label>
        <input id="payouts-to" name="to" type="date" defaultValue={period?.to} required />
        <label htmlFor="payouts-status">Status</label>
        <select id="payouts-status" name="status" defaultValue="">
          <option value="">Any</option>
          {LIFECYCLE.map((code) => (
            <option key={code} value={code}>
              {PAYOUT_STATUS[code]}
            </option>
          ))}
        </select>
        <button type="submit" className="secondary">
          Filter
        </button>
        {search?.kind === 'period' && (
          <button type="button" className="secondary" onClick={() => void csv()}>
            Download CSV
          </button>
        )}
      </form>
      <form onSubmit={byCustomer} className="inline filters" aria-label="Payouts of a customer">
        <label htmlFor="payouts-customer">Customer's CPF or CNPJ</label>
        <DocumentInput id="payouts-customer" name="customer" required />
        <button type="submit" className="secondary">
          Show their payouts
        </button>
      </form>
      <Alert message={searchError} />
      {search && found && (
        <>
          <p className="muted" data-testid="payouts-found">
            {`${found.total} ${found.total === 1 ? 'payout' : 'payouts'} `}
            {search.kind === 'period' ? `created from ${search.from} to ${search.to} (Brasília time)` : 'to this customer'}
          </p>
          {found.payouts.length > 0 && <PayoutTable payouts={found.payouts} environment={environment} />}
          {search.kind === 'period' && <Pager page={search.page} pages={found.pages} onPage={(page) => setSearch({ ...search, page })} />}
        </>
      )}

      {mayAct(session.role, environment) && (
        <>
          <h2>New payout</h2>
          <Alert
            message={problemsAbove(problems, [
              'amount',
              'document_number',
              'name',
              'transaction_id',
              'webhook',
              ...(destination === 'pix_key' ? ['pix_key'] : ['bank.account_agency', 'bank.account_number', 'bank.ispb']),
            ])}
          />
          <form onSubmit={(event) => void create(event)} className="stacked" noValidate>
            <Field
              id="payout-transaction-id"
              label="Your identifier (transaction_id)"
              problems={problems.transaction_id}
              hint="Unique in your account, at most 35 characters."
            >
              <input id="payout-transaction-id" name="transaction_id" />
            </Field>
            <Field id="payout-amount" label="Amount (R$)" problems={problems.amount}>
              <input id="payout-amount" name="amount" inputMode="decimal" />
            </Field>
            <Field id="payout-name" label="Beneficiary's name" problems={problems.name}>
              <input id="payout-name" name="name" />
            </Field>
            <Field id="payout-document" label="Beneficiary's CPF or CNPJ" problems={problems.document_number} hint={DOCUMENT_HINT}>
              <DocumentInput id="payout-document" name="document_number" />
            </Field>
            <Field id="payout-destination" label="Pay to">
              <select id="payout-destination" value={destination} onChange={(event) => setDestination(event.target.value as typeof destination)}>
                <option value="pix_key">A Pix key</option>
                <option value="bank">A bank account</option>
              </select>
            </Field>
            {destination === 'pix_key' ? (
              <Field
                id="payout-pix-key"
                label="Pix key"
                problems={problems.pix_key}
                hint="A CPF, a CNPJ, an email address, a +55 phone number or a random key."
              >
                <input id="payout-pix-key" name="pix_key" />
              </Field>
            ) : (
              <>
                <Field id="payout-ispb" label="Institution's ISPB" problems={problems['bank.ispb']} hint="Its 8-digit central bank code.">
                  <input id="payout-ispb" name="ispb" inputMode="numeric" />
                </Field>
                <Field id="payout-agency" label="Branch" problems={problems['bank.account_agency']}>
                  <input id="payout-agency" name="account_agency" inputMode="numeric" />
                </Field>
                <Field
                  id="payout-account"
                  label="Account number"
                  problems={problems['bank.account_number']}
                  hint="With its check digit after a hyphen, if it has one."
                >
                  <input id="payout-account" name="account_number" />
                </Field>
              </>
            )}
            <Field id="payout-webhook" label="Webhook URL (optional)" problems={problems.webhook} hint="Receives the payout's events.">
              <input id="payout-webhook" name="webhook" type="url" />
            </Field>
            <button type="submit" disabled={busy}>
              Create payout
            </button>
          </form>
        </>
      )}
    </section>
  );
}

function PayoutTable({ payouts, environment }: { payouts: Payout[]; environment: PageContext['environment'] }) {
  return (
    <ScrollBox label="Payouts found">
      <table>
        <caption className="visually-hidden">Payouts found, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Transaction id</th>
            <th scope="col">Beneficiary</th>
            <th scope="col">Amount</th>
            <th scope="col">{withZone('Created', environment === 'sandbox')}</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {payouts.map((payout) => (
            <tr key={payout.id}>
              <td>
                <a href={hrefOf({ environment, page: 'payouts', id: String(payout.id) })}>{payout.transaction_id}</a>
              </td>
              <td>
                {payout.name} ({payout.document_number})
              </td>
              <td>{money(payout.amount)}</td>
              <td>
                <When iso={payout.created_at} testClock={environment === 'sandbox'} />
              </td>
              <td>
                <PayoutStatus status={payout.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
