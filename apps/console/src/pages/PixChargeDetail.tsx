import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, money, problemsByField, type ApiError } from '../api';
import { saveReceipt } from '../download';
import { reais, typedIn } from '../forms';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { Field } from './Field';

type PixCharge = SandboxComponents['schemas']['PixChargeResponse'];
type Refund = SandboxComponents['schemas']['RefundResponse'];

/** One Pix charge: its code while payable, paying it in the sandbox, refunding it in parts, each refund's receipt. */
export function PixChargeDetail({ api, environment, session, clockMoves, chargeId }: PageContext & { chargeId: string }) {
  const [charge, setCharge] = useState<PixCharge>();
  const [refunds, setRefunds] = useState<Refund[]>([]);
  const [error, setError] = useState<ApiError>();
  const acts = mayAct(session.role, environment);
  const sandbox = environment === 'sandbox';

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/v2/pix', { params: { query: { id: Number(chargeId) } } });
    if (data) setCharge(data);
    else setError(error as ApiError);
  }, [api, chargeId]);

  useEffect(() => {
    void load();
  }, [load, clockMoves]);

  const pay = async () => {
    const { data, error } = await api.POST('/v2/sandbox/pix/{id}/pay', { params: { path: { id: chargeId } } });
    if (data) setCharge(data);
    setError(error as ApiError | undefined);
  };

  const refund = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    const amount = text('refund_amount');
    const { data, error } = await api.POST('/v2/transactions/refund', {
      body: { id: Number(chargeId), refund_id: text('refund_id'), ...(amount && { amount: reais(amount) }) },
    });
    setError(error as ApiError | undefined);
    if (data) setRefunds((known) => [...known, data]);
  };

  const settle = async (refundId: number) => {
    const { data, error } = await api.POST('/v2/sandbox/refunds/{id}/settle', { params: { path: { id: String(refundId) } } });
    setError(error as ApiError | undefined);
    if (data) setRefunds((known) => known.map((candidate) => (candidate.id === data.id ? data : candidate)));
  };

  const receipt = async (refund: Refund) => {
    const { data, error } = await api.GET('/v2/transactions/refund/receipt', { params: { query: { refund_id: refund.refund_id ?? undefined } } });
    if (data) saveReceipt(data);
    else setError(error as ApiError);
  };

  const problems = problemsByField(error);
  if (!charge) return error ? <Alert message={error.message} /> : <p>Loading…</p>;
  return (
    <section aria-labelledby="pix-charge-title">
      <div className="title-row">
        <h1 id="pix-charge-title">Pix charge {charge.transaction_id}</h1>
        <span className={`status status-${charge.status}`} data-testid="pix-status">
          {charge.status}
        </span>
      </div>
      <Alert message={problems['']?.join('. ')} />
      <div className="columns">
        <dl className="terms">
          <dt>Amount</dt>
          <dd>{money(charge.amount)}</dd>
          <dt>Payer</dt>
          <dd>
            {charge.payer?.name} ({charge.payer?.document_number})
          </dd>
          <dt>Charge id</dt>
          <dd>{charge.id}</dd>
          <dt>Created</dt>
          <dd>{charge.created_at}</dd>
          <dt>{charge.paid_at ? 'Paid' : 'Expires'}</dt>
          <dd>{charge.paid_at ?? charge.expires_at}</dd>
        </dl>
        {charge.pix_copy_paste && (
          <figure className="qr">
            {charge.qrcode && <img src={charge.qrcode} alt="QR code the payer scans to pay" width={180} height={180} />}
            <figcaption>
              <label htmlFor="pix-copy-paste">Pix copy and paste</label>
              <textarea id="pix-copy-paste" readOnly value={charge.pix_copy_paste} rows={3} />
            </figcaption>
          </figure>
        )}
      </div>
      {acts && sandbox && charge.status === 'PENDING' && (
        <section className="payer" aria-labelledby="pix-payer-title">
          <h2 id="pix-payer-title">Act as the payer</h2>
          <button type="button" onClick={() => void pay()}>
            Pay
          </button>
        </section>
      )}
      {charge.status === 'PAID' && (
        <section aria-labelledby="refunds-title">
          <h2 id="refunds-title">Refunds</h2>
          {acts && (
            <form onSubmit={(event) => void refund(event)} className="stacked" noValidate>
              <Field id="refund-id" label="Your identifier of the refund" problems={problems.refund_id}>
                <input id="refund-id" name="refund_id" />
              </Field>
              <Field id="refund-amount" label="Amount to refund (R$; empty: all that is left)" problems={problems.amount}>
                <input id="refund-amount" name="refund_amount" inputMode="decimal" />
              </Field>
              <button type="submit">Refund</button>
            </form>
          )}
          <ul className="refunds" data-testid="refunds">
            {refunds.map((item) => (
              <li key={item.id}>
                {item.refund_id} {money(item.amount)} <span className={`status status-${item.status}`}>{item.status}</span>{' '}
                {acts && sandbox && item.status === 'PROCESSING' && (
                  <button type="button" className="secondary" onClick={() => void settle(item.id)}>
                    Settle now
                  </button>
                )}
                {item.status === 'REFUNDED' && item.refund_id && (
                  <button type="button" className="secondary" onClick={() => void receipt(item)}>
                    Download receipt
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
