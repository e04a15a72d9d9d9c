import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SandboxComponents } from '@pixauto/api-client';
import { mayAct, money, problemsAbove, problemsByField, type ApiError } from '../api';
import { saveReceipt } from '../download';
import { reais, typedIn } from '../forms';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { CopyButton } from './CopyButton';
import { Field } from './Field';
import { When, withZone } from './When';
import { DISPUTE_STATUS, labelOf, PIX_CHARGE_STATUS, REFUND_STATUS } from '../labels';
import { go, hrefOf } from '../routing';

type PixCharge = SandboxComponents['schemas']['PixChargeResponse'];
type Refund = SandboxComponents['schemas']['RefundResponse'];

/** How many pages of the account's refunds a charge's page reads at most (100 each), from the charge's creation on. */
const MOST_PAGES = 20;

/**
 * A charge's refunds, newest first: the API lists refunds by period, so the page reads those asked for since the
 * charge was created and keeps this charge's.
 */
async function refundsOf(api: PageContext['api'], charge: PixCharge): Promise<Refund[]> {
  const query = { start: charge.created_at, end: '9999-12-31T00:00:00Z', page_size: 100 };
  const found: Refund[] = [];
  for (let page = 0; page < MOST_PAGES; page++) {
    const { data } = await api.GET('/v2/transactions/refunds', { params: { query: { ...query, page } } });
    if (!data) break;
    found.push(...data.refunds.filter((refund) => refund.transaction.id === charge.id));
    if (page + 1 >= data.pagination.total_pages) break;
  }
  return found;
}

const total = (refunds: Refund[], status: Refund['status']): number =>
  Math.round(refunds.filter((refund) => refund.status === status).reduce((sum, refund) => sum + refund.amount * 100, 0)) / 100;

/** One Pix charge: its code while payable, paying it in the sandbox, refunding it in parts, each refund's receipt. */
export function PixChargeDetail({ api, environment, session, clockMoves, chargeId }: PageContext & { chargeId: string }) {
  const [charge, setCharge] = useState<PixCharge>();
  const [refunds, setRefunds] = useState<Refund[]>([]);
  const [error, setError] = useState<ApiError>();
  const acts = mayAct(session.role, environment);
  const sandbox = environment === 'sandbox';

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/v2/pix', { params: { query: { id: Number(chargeId) } } });
    if (data) {
      setCharge(data);
      if (data.status === 'PAID') setRefunds(await refundsOf(api, data));
    } else setError(error as ApiError);
  }, [api, chargeId]);

  useEffect(() => {
    void load();
  }, [load, clockMoves]);

  const pay = async () => {
    const { data, error } = await api.POST('/v2/sandbox/pix/{id}/pay', { params: { path: { id: chargeId } } });
    if (data) setCharge(data);
    setError(error as ApiError | undefined);
  };

  /** Sandbox: the payer's bank disputes the payment (whole, returned if not defended in time), and the dispute opens. */
  const dispute = async () => {
    const { data, error } = await api.POST('/v2/sandbox/transactions/{id}/dispute', { params: { path: { id: chargeId } }, body: {} });
    setError(error as ApiError | undefined);
    if (data) go({ environment, page: 'disputes', id: String(data.id) });
  };

  const refund = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const text = typedIn(form);
    const amount = text('refund_amount');
    const { data, error } = await api.POST('/v2/transactions/refund', {
      body: { id: Number(chargeId), refund_id: text('refund_id'), ...(amount && { amount: reais(amount) }) },
    });
    setError(error as ApiError | undefined);
    if (data) {
      form.reset();
      setRefunds((known) => [data, ...known]);
    }
  };

  const settle = async (refundId: number) => {
    const { data, error } = await api.POST('/v2/sandbox/refunds/{id}/settle', { params: { path: { id: String(refundId) } } });
    setError(error as ApiError | undefined);
    if (data) setRefunds((known) => known.map((candidate) => (candidate.id === data.id ? data : candidate)));
  };

  const receipt = async (refund: Refund) => {
    // A refund the service started itself has no refund_id: its receipt is the charge's.
    const query = refund.refund_id ? { refund_id: refund.refund_id } : { id: refund.transaction.id };
    const { data, error } = await api.GET('/v2/transactions/refund/receipt', { params: { query } });
    if (data) saveReceipt(data);
    else setError(error as ApiError);
  };

  const problems = problemsByField(error);
  const refunded = total(refunds, 'REFUNDED');
  const inProgress = total(refunds, 'PROCESSING');
  if (!charge) return error ? <Alert message={error.message} /> : <p>Loading…</p>;
  return (
    <section aria-labelledby="pix-charge-title">
      <div className="title-row">
        <h1 id="pix-charge-title">Pix charge {charge.transaction_id}</h1>
        <span className={`status status-${charge.status}`} data-testid="pix-status">
          {labelOf(PIX_CHARGE_STATUS, charge.status)}
        </span>
      </div>
      <Alert message={problemsAbove(problems, ['amount', 'refund_id'])} />
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
          <dt>Webhook</dt>
          <dd data-testid="pix-webhook">{charge.webhook ?? 'None: this charge sends no webhooks'}</dd>
          <dt>{withZone('Created', sandbox)}</dt>
          <dd>
            <When iso={charge.created_at} testClock={sandbox} />
          </dd>
          <dt>{withZone(charge.paid_at ? 'Paid' : charge.status === 'EXPIRED' ? 'Expired' : 'Expires', sandbox)}</dt>
          <dd>
            <When iso={charge.paid_at ?? charge.expires_at} testClock={sandbox} />
          </dd>
        </dl>
        {charge.pix_copy_paste && (
          <figure className="qr">
            {charge.qrcode && <img src={charge.qrcode} alt="QR code the payer scans to pay" width={180} height={180} />}
            <figcaption>
              <label htmlFor="pix-copy-paste">Pix copy and paste</label>
              <textarea id="pix-copy-paste" readOnly value={charge.pix_copy_paste} rows={3} />
              <CopyButton key={charge.pix_copy_paste} text={charge.pix_copy_paste} label="Copy code" id="pix-copy-paste" />
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
      {charge.dispute && (
        <p data-testid="pix-dispute">
          Disputed by the payer&apos;s bank:{' '}
          <a href={hrefOf({ environment, page: 'disputes', id: String(charge.dispute.id) })}>{labelOf(DISPUTE_STATUS, charge.dispute.status)}</a>
          {charge.dispute.returned_amount > 0 && `, ${money(charge.dispute.returned_amount)} returned to the payer`}
        </p>
      )}
      {acts && sandbox && charge.status === 'PAID' && charge.dispute?.status !== 'OPEN' && charge.dispute?.status !== 'DEFENDED' && (
        <section className="payer" aria-labelledby="pix-payer-dispute-title">
          <h2 id="pix-payer-dispute-title">Act as the payer&apos;s bank</h2>
          <button type="button" className="secondary" onClick={() => void dispute()}>
            Dispute this payment
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
          <p data-testid="refunded-total">
            Refunded: {money(refunded)} of {money(charge.amount)}
            {inProgress > 0 && `, ${money(inProgress)} on its way`}
          </p>
          {refunds.length === 0 && <p>No refund yet.</p>}
          <ul className="refunds" data-testid="refunds">
            {refunds.map((item) => (
              <li key={item.id}>
                {item.refund_id ?? 'By the service'} {money(item.amount)}{' '}
                <span className={`status status-${item.status}`}>{labelOf(REFUND_STATUS, item.status)}</span>{' '}
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
