import { useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, money, problemsAbove, problemsByField, type ApiError } from '../api';
import { reais, typedIn } from '../forms';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { Field, DOCUMENT_HINT, DocumentInput } from './Field';
import { When, withZone } from './When';

type Limit = SandboxComponents['schemas']['LimitResponse'];
type LimitType = SandboxComponents['schemas']['LimitType'];
type Mechanism = SandboxComponents['schemas']['LimitMechanism'];

const TYPES: Array<[LimitType, string]> = [
  ['cashin', 'Cash-in: Pix charges they pay'],
  ['cashout', 'Cash-out: payouts to them'],
];
const typeOptions = TYPES.map(([value, label]) => (
  <option key={value} value={value}>
    {label}
  </option>
));

/** A customer's limits (per CPF): reading one, and setting one by amount per transaction or by transactions per day. */
export function CustomerLimits({ api, environment, session }: PageContext) {
  const [limit, setLimit] = useState<Limit>();
  const [lookupError, setLookupError] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [mechanism, setMechanism] = useState<Mechanism>('amount');
  const [busy, setBusy] = useState(false);
  const problems = problemsByField(error);

  const lookUp = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    const query = { document_number: text('document_number'), type: text('type') as LimitType };
    const { data, error } = await api.GET('/v2/limits', { params: { query } });
    setLimit(data);
    setLookupError(error ? (error as ApiError).message : undefined);
  };

  const set = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    const details = text('details');
    setBusy(true);
    const { data, error } = await api.POST('/v2/limits', {
      body: {
        document_number: text('document_number'),
        type: text('type') as LimitType,
        mechanism,
        ...(mechanism === 'amount' ? { amount: reais(text('amount')) } : { quantity: Number(text('quantity')) }),
        ...(details && { details }),
      },
    });
    setBusy(false);
    setError(error as ApiError | undefined);
    if (data) {
      setLimit(data);
      setLookupError(undefined);
    }
  };

  return (
    <section aria-labelledby="limits-title">
      <h1 id="limits-title">Customer limits</h1>
      <p>
        A limit caps what one customer (a CPF) does with you: each transaction's amount, or how many transactions a day (Brasília time). A customer without one
        is not limited.
      </p>
      <form onSubmit={(event) => void lookUp(event)} className="inline" aria-label="Look up a limit">
        <label htmlFor="lookup-document">CPF or CNPJ to look up</label>
        <DocumentInput id="lookup-document" name="document_number" required />
        <label htmlFor="lookup-type">Its limit on</label>
        <select id="lookup-type" name="type" defaultValue="cashout">
          {typeOptions}
        </select>
        <button type="submit" className="secondary">
          Look up
        </button>
      </form>
      <Alert message={lookupError} />
      {limit && (
        <dl className="terms" data-testid="limit">
          <dt>Customer</dt>
          <dd>{limit.document_number}</dd>
          <dt>On</dt>
          <dd>{TYPES.find(([value]) => value === limit.type)?.[1]}</dd>
          <dt>Limit</dt>
          <dd>{limit.mechanism === 'amount' ? `At most ${money(limit.amount)} per transaction` : `At most ${limit.quantity} transactions a day`}</dd>
          {limit.details && (
            <>
              <dt>Note</dt>
              <dd>{limit.details}</dd>
            </>
          )}
          <dt>{withZone('Last changed')}</dt>
          <dd>
            <When iso={limit.updated_at} />
          </dd>
        </dl>
      )}

      {mayAct(session.role, environment) && (
        <>
          <h2 id="set-limit-title">Set a limit</h2>
          <p className="muted">It replaces the customer's limit of that kind, and applies from their very next transaction.</p>
          <Alert message={problemsAbove(problems, ['amount', 'details', 'document_number', 'mechanism', 'quantity', 'type'])} />
          <form onSubmit={(event) => void set(event)} className="stacked" noValidate aria-labelledby="set-limit-title">
            <Field id="limit-document" label="Customer's CPF or CNPJ" problems={problems.document_number} hint={DOCUMENT_HINT}>
              <DocumentInput id="limit-document" name="document_number" />
            </Field>
            <Field id="limit-type" label="Limit on" problems={problems.type}>
              <select id="limit-type" name="type" defaultValue="cashout">
                {typeOptions}
              </select>
            </Field>
            <Field id="limit-mechanism" label="Limit by" problems={problems.mechanism}>
              <select id="limit-mechanism" value={mechanism} onChange={(event) => setMechanism(event.target.value as Mechanism)}>
                <option value="amount">Amount of each transaction</option>
                <option value="quantity">Transactions per day</option>
              </select>
            </Field>
            {mechanism === 'amount' ? (
              <Field id="limit-amount" label="Highest amount (R$)" problems={problems.amount}>
                <input id="limit-amount" name="amount" inputMode="decimal" />
              </Field>
            ) : (
              <Field id="limit-quantity" label="Transactions per day" problems={problems.quantity}>
                <input id="limit-quantity" name="quantity" inputMode="numeric" />
              </Field>
            )}
            <Field id="limit-details" label="Note (optional)" problems={problems.details}>
              <input id="limit-details" name="details" />
            </Field>
            <button type="submit" disabled={busy}>
              Set limit
            </button>
          </form>
        </>
      )}
    </section>
  );
}
