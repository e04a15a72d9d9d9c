import { useState, type FormEvent } from 'react';
import { mayAct, problemsByField, type ApiError } from '../api';
import { go } from '../routing';
import { reais, typedIn } from '../forms';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { Field } from './Field';
import { FindOne, type OneOf } from './FindOne';

/** Cash-in: a new Pix charge the payer pays by its QR code, and finding one by its id or your transaction_id. */
export function PixCharges({ api, environment, session }: PageContext) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const problems = problemsByField(error);

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
      {mayAct(session.role, environment) && (
        <>
          <h2>New Pix charge</h2>
          <Alert message={problems['']?.join('. ')} />
          <form onSubmit={(event) => void create(event)} className="stacked" noValidate>
            <Field id="pix-transaction-id" label="Your identifier (transaction_id)" problems={problems.transaction_id}>
              <input id="pix-transaction-id" name="transaction_id" />
            </Field>
            <Field id="pix-amount" label="Amount (R$)" problems={problems.amount}>
              <input id="pix-amount" name="amount" inputMode="decimal" />
            </Field>
            <Field id="payer-document" label="Payer's CPF or CNPJ" problems={problems['payer.document_number']} hint="Digits only.">
              <input id="payer-document" name="payer_document" inputMode="numeric" />
            </Field>
            <Field id="payer-name" label="Payer's name" problems={problems['payer.name']}>
              <input id="payer-name" name="payer_name" />
            </Field>
            <Field id="pix-description" label="Description (optional)" problems={problems.description}>
              <input id="pix-description" name="description" />
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
