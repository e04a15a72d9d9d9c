import { useState, type FormEvent } from 'react';
import { problemsAbove, problemsByField, type ApiError } from '../api';
import { go } from '../routing';
import { reais, typedIn } from '../forms';
import { PERIODICITY, RETRY_POLICY } from '../labels';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { Field, DOCUMENT_HINT, DocumentInput } from './Field';

const PERIODICITIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] as const;
const RETRY_POLICIES = ['NOT_ALLOWED', 'ALLOWS_3R_7D'] as const;

/** A new recurrence: the API's own validation decides, and its messages are shown beside the fields they are about. */
export function RecurrenceCreate({ api, environment }: PageContext) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const problems = problemsByField(error);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    const endDate = text('end_date');
    setBusy(true);
    const { data, error } = await api.POST('/v2/automatic-pix/recurrences', {
      body: {
        transaction_id: text('transaction_id'),
        debtor: { document_number: text('document_number'), name: text('debtor_name') },
        schedule: { start_date: text('start_date'), periodicity: text('periodicity') as (typeof PERIODICITIES)[number], ...(endDate && { end_date: endDate }) },
        amount: reais(text('amount')),
        retry_policy: text('retry_policy') as (typeof RETRY_POLICIES)[number],
        ...(text('webhook') && { webhook: text('webhook') }),
      },
    });
    setBusy(false);
    if (data) go({ environment, page: 'recurrences', id: data.recurrence_id });
    else setError(error as ApiError);
  };

  return (
    <section aria-labelledby="new-recurrence-title">
      <h1 id="new-recurrence-title">New recurrence</h1>
      <Alert
        message={problemsAbove(problems, [
          'amount',
          'debtor.document_number',
          'debtor.name',
          'retry_policy',
          'schedule.end_date',
          'schedule.periodicity',
          'schedule.start_date',
          'transaction_id',
          'webhook',
        ])}
      />
      <form onSubmit={(event) => void submit(event)} className="stacked" noValidate>
        <Field id="transaction_id" label="Your identifier (contract)" problems={problems.transaction_id} hint="Unique in your account, at most 35 characters.">
          <input id="transaction_id" name="transaction_id" />
        </Field>
        <Field id="document_number" label="Payer's CPF or CNPJ" problems={problems['debtor.document_number']} hint={DOCUMENT_HINT}>
          <DocumentInput id="document_number" name="document_number" />
        </Field>
        <Field id="debtor_name" label="Payer's name" problems={problems['debtor.name']}>
          <input id="debtor_name" name="debtor_name" />
        </Field>
        <Field id="amount" label="Amount of each charge (R$)" problems={problems.amount}>
          <input id="amount" name="amount" inputMode="decimal" />
        </Field>
        <Field id="start_date" label="First charge on" problems={problems['schedule.start_date']} hint="A day after today.">
          <input id="start_date" name="start_date" type="date" />
        </Field>
        <Field id="end_date" label="Last charge by (optional)" problems={problems['schedule.end_date']}>
          <input id="end_date" name="end_date" type="date" />
        </Field>
        <Field id="periodicity" label="Every" problems={problems['schedule.periodicity']}>
          <select id="periodicity" name="periodicity" defaultValue="MONTHLY">
            {PERIODICITIES.map((periodicity) => (
              <option key={periodicity} value={periodicity}>
                {PERIODICITY[periodicity]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="retry_policy" label="When a charge fails" problems={problems.retry_policy}>
          <select id="retry_policy" name="retry_policy" defaultValue="NOT_ALLOWED">
            {RETRY_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {RETRY_POLICY[policy]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="webhook" label="Webhook URL (optional)" problems={problems.webhook} hint="Receives the events of the recurrence and of its charges.">
          <input id="webhook" name="webhook" type="url" />
        </Field>
        <button type="submit" disabled={busy}>
          Create recurrence
        </button>
      </form>
    </section>
  );
}
