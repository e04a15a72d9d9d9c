import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { mayAct, money, problemsAbove, problemsByField, type ApiError } from '../api';
import { saveReceipt, type Receipt } from '../download';
import { reais, typedIn } from '../forms';
import type { PageContext } from './page-context';
import { Alert } from './Alert';
import { Field } from './Field';
import { PayoutStatus, type Payout } from './Payouts';
import { When, withZone } from './When';

/** While the bank has a payout, what it does shows up within this. */
const REFRESH_MS = 2000;
/** The statuses the bank still moves a payout from. */
const OPEN = [0, 4];
/** What the sandbox's bank can do to an open payout (POST /v2/sandbox/payouts/:id/status). */
const MOVES = [
  [4, 'Processing'],
  [1, 'Paid'],
  [2, 'Canceled'],
  [3, 'Rejected'],
] as const;

/** One payout: to whom, how much, where the bank has it; its receipts; in the sandbox, the bank's moves and returns. */
export function PayoutDetail({ api, environment, session, clockMoves, payoutId }: PageContext & { payoutId: string }) {
  const [payout, setPayout] = useState<Payout>();
  const [error, setError] = useState<ApiError>();
  const sandbox = environment === 'sandbox';
  const acts = mayAct(session.role, environment) && sandbox;
  const open = payout === undefined || OPEN.includes(payout.status);

  // Reads and moves are numbered: a read answered after a later read or move was sent is dropped, so it cannot undo a move.
  const asked = useRef(0);

  const load = useCallback(async () => {
    const mine = ++asked.current;
    const { data, error } = await api.GET('/v2/withdrawals', { params: { query: { id: Number(payoutId) } } });
    if (mine !== asked.current) return;
    if (data) setPayout(data);
    else setError(error as ApiError);
  }, [api, payoutId]);

  useEffect(() => {
    void load();
  }, [load, clockMoves]);

  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load, open]);

  const answered = async (request: Promise<{ data?: Payout; error?: unknown }>) => {
    ++asked.current;
    const { data, error } = await request;
    if (data) setPayout(data);
    setError(error as ApiError | undefined);
  };

  const move = (status: number) => answered(api.POST('/v2/sandbox/payouts/{id}/status', { params: { path: { id: payoutId } }, body: { status } }));

  const sendBack = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = typedIn(event.currentTarget);
    const amount = text('return_amount');
    const refundId = text('return_id');
    await answered(
      api.POST('/v2/sandbox/payouts/{id}/return', {
        params: { path: { id: payoutId } },
        body: { ...(amount && { amount: reais(amount) }), ...(refundId && { refund_id: refundId }) },
      }),
    );
  };

  const download = async (request: Promise<{ data?: Receipt; error?: unknown }>) => {
    const { data, error } = await request;
    if (data) saveReceipt(data);
    setError(error as ApiError | undefined);
  };

  const problems = problemsByField(error);
  if (!payout) return error ? <Alert message={error.message} /> : <p>Loading…</p>;
  return (
    <section aria-labelledby="payout-title">
      <div className="title-row">
        <h1 id="payout-title">Payout {payout.transaction_id}</h1>
        <PayoutStatus status={payout.status} testId="payout-status" />
      </div>
      <Alert message={problemsAbove(problems, ['amount', 'refund_id'])} />
      <dl className="terms">
        <dt>Amount</dt>
        <dd>{money(payout.amount)}</dd>
        <dt>Beneficiary</dt>
        <dd>
          {payout.name} ({payout.document_type} {payout.document_number})
        </dd>
        <dt>Receiving account</dt>
        <dd>
          {payout.bank.ispb
            ? `${payout.bank.bank_name ?? payout.bank.ispb}, branch ${payout.bank.account_agency}, account ${payout.bank.account_number}`
            : OPEN.includes(payout.status)
              ? 'Not known yet: the bank resolves the Pix key'
              : 'None'}
        </dd>
        <dt>Payout id</dt>
        <dd>{payout.id}</dd>
        <dt>{withZone('Created', sandbox)}</dt>
        <dd>
          <When iso={payout.created_at} testClock={sandbox} />
        </dd>
        {payout.paid_at && (
          <>
            <dt>{withZone('Paid', sandbox)}</dt>
            <dd>
              <When iso={payout.paid_at} testClock={sandbox} />
            </dd>
            <dt>End-to-end id</dt>
            <dd>
              <code>{payout.e2e}</code>
            </dd>
          </>
        )}
        {payout.refund_id && (
          <>
            <dt>Latest return</dt>
            <dd>
              <code>{payout.refund_id}</code>
            </dd>
          </>
        )}
      </dl>

      {acts && OPEN.includes(payout.status) && (
        <section className="payer" aria-labelledby="bank-title">
          <h2 id="bank-title">Act as the bank</h2>
          <p>In the sandbox you decide what the bank does with the payout (left alone, it pays it within seconds).</p>
          <div className="inline">
            {MOVES.filter(([status]) => status !== payout.status).map(([status, label]) => (
              <button key={status} type="button" className={status === 1 ? undefined : 'secondary'} onClick={() => void move(status)}>
                {label}
              </button>
            ))}
          </div>
        </section>
      )}

      {payout.status === 1 && (
        <section aria-labelledby="receipts-title">
          <h2 id="receipts-title">Receipts</h2>
          <div className="inline">
            <button
              type="button"
              className="secondary"
              onClick={() => void download(api.GET('/v2/withdrawals/receipt', { params: { query: { id: payout.id } } }))}
            >
              Download receipt
            </button>
            {payout.refund_id && (
              <button
                type="button"
                className="secondary"
                onClick={() => void download(api.GET('/v2/withdrawals/refund/receipt', { params: { query: { refund_id: payout.refund_id } } }))}
              >
                Download return receipt
              </button>
            )}
          </div>
          {acts && (
            <form onSubmit={(event) => void sendBack(event)} className="stacked" noValidate aria-labelledby="return-title">
              <h3 id="return-title">Send it back, as the receiving bank</h3>
              <Field id="return-id" label="Identifier of the return (optional)" problems={problems.refund_id} hint="1 to 35 letters and digits.">
                <input id="return-id" name="return_id" />
              </Field>
              <Field id="return-amount" label="Amount to send back (R$; empty: all that is left)" problems={problems.amount}>
                <input id="return-amount" name="return_amount" inputMode="decimal" />
              </Field>
              <button type="submit">Send back</button>
            </form>
          )}
        </section>
      )}
    </section>
  );
}
