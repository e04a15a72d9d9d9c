import { PayoutRecordData } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { BankPayoutNotice, payout, PayoutEvent } from './payout';

const created: PayoutRecordData = {
  id: 7,
  transaction_id: 'saque-0001',
  name: 'Maria Silva',
  document_number: '52998224725',
  document_type: 'CPF',
  amount_centavos: 15050,
  status: 0,
  pix_key: 'maria@example.com',
  bank: { type: 'PIX', bank_name: null, bank_code: null, ispb: null, account_agency: null, account_number: null },
  webhook: 'https://shop.example.com/pix',
  provider: 'PROVIDER_A',
  created_at: '2026-11-24T12:00:00.000Z',
  paid_at: null,
  e2e: null,
  psp_id: null,
};

const notice = (status: BankPayoutNotice['status'], extra: Partial<BankPayoutNotice> = {}): BankPayoutNotice => ({
  status,
  name: null,
  bank: { bank_name: null, bank_code: null, ispb: null, account_agency: null, account_number: null },
  e2e: null,
  psp_id: null,
  paid_at: null,
  reason: null,
  ...extra,
});

const given = DeciderSpecification.for(payout);
const createdEvent: PayoutEvent = { type: 'payout.created', data: { payout: created } };
const statusEvent = (from: 0 | 4, to: 0 | 1 | 2 | 3 | 4): PayoutEvent => ({
  type: 'payout.status_changed',
  data: { payout: { ...created, status: to }, from, to, reason: null },
});

describe('payout', () => {
  it('is created once: a repeated creation records nothing', () => {
    given().when({ type: 'CreatePayout', payout: created }).then([createdEvent]);
    given(createdEvent).when({ type: 'CreatePayout', payout: created }).then([]);
  });

  it('takes what the bank learnt: processing with the institution, e2e and psp id', () => {
    const bank = { bank_name: 'Itaú Unibanco S.A.', bank_code: '341', ispb: '60701190', account_agency: '0001', account_number: '123456' };
    given(createdEvent)
      .when({ type: 'RecordBankNotice', notice: notice(4, { name: 'MARIA SILVA', bank, e2e: 'E123', psp_id: 'P1' }) })
      .then([
        {
          type: 'payout.status_changed',
          data: {
            payout: { ...created, status: 4, name: 'MARIA SILVA', bank: { type: 'PIX', ...bank }, e2e: 'E123', psp_id: 'P1' },
            from: 0,
            to: 4,
            reason: null,
          },
        },
      ]);
  });

  it('records paid_at only when completed', () => {
    given(createdEvent, statusEvent(0, 4))
      .when({ type: 'RecordBankNotice', notice: notice(1, { paid_at: '2026-11-24T12:00:02.000Z' }) })
      .thenMatches([{ data: { payout: { paid_at: '2026-11-24T12:00:02.000Z' } } }]);
    given(createdEvent)
      .when({ type: 'RecordBankNotice', notice: notice(3, { paid_at: '2026-11-24T12:00:02.000Z', reason: 'no such key' }) })
      .thenMatches([{ data: { payout: { status: 3, paid_at: null }, from: 0, to: 3, reason: 'no such key' } }]);
  });

  it('ignores notices that do not move it forward: a repeat, a late processing, anything after a final status', () => {
    given(createdEvent, statusEvent(0, 4))
      .when({ type: 'RecordBankNotice', notice: notice(4) })
      .then([]);
    given(createdEvent, statusEvent(0, 4), statusEvent(4, 1))
      .when({ type: 'RecordBankNotice', notice: notice(4) })
      .then([]);
    given(createdEvent, statusEvent(0, 4), statusEvent(4, 1))
      .when({ type: 'RecordBankNotice', notice: notice(3) })
      .then([]);
    given(createdEvent, statusEvent(0, 4))
      .when({ type: 'RecordBankNotice', notice: notice(0) })
      .then([]);
  });

  it('refuses a sandbox move of a final payout, naming its status', () => {
    given(createdEvent, statusEvent(0, 4)).when({ type: 'CheckSandboxStatusChange', to: 2 }).then([]);
    given(createdEvent, statusEvent(0, 4), statusEvent(4, 1))
      .when({ type: 'CheckSandboxStatusChange', to: 2 })
      .thenRefuses(validation('the payout is completed (1) and can no longer change'));
    given().when({ type: 'CheckSandboxStatusChange', to: 2 }).thenRefuses(notFound('Payout not found'));
  });
});

describe('payout returned by the receiving bank', () => {
  const completed = statusEvent(4, 1);
  const paid = { ...created, status: 1 as const };
  const ret = (rtr: string, amount: number, refundId = rtr) => ({
    id: Number(rtr.slice(1)),
    refund_id: refundId,
    amount_centavos: amount,
    rtr_id: rtr,
    returned_at: '2026-11-24T13:00:00.000Z',
  });
  const returnedEvent = (returns: ReturnType<typeof ret>[]): PayoutEvent => ({
    type: 'payout.returned',
    data: { payout: { ...paid, returns }, return: returns[returns.length - 1] },
  });

  it('records each return once, on the record (the status stays completed)', () => {
    const first = ret('D1', 5000, 'DEVOLVE1');
    given(createdEvent, completed)
      .when({ type: 'RecordReturn', return: first })
      .then([returnedEvent([first])]);
    given(createdEvent, completed, returnedEvent([first]))
      .when({ type: 'RecordReturn', return: first })
      .then([]);
    const second = ret('D2', 1000);
    given(createdEvent, completed, returnedEvent([first]))
      .when({ type: 'RecordReturn', return: second })
      .then([returnedEvent([first, second])]);
  });

  it('lets the sandbox return only a completed payout, up to what is left of it', () => {
    given(createdEvent)
      .when({ type: 'CheckSandboxReturn', amount_centavos: undefined })
      .thenRefuses(validation('the payout is created (0): only a completed payout can be returned'));
    given(createdEvent, completed).when({ type: 'CheckSandboxReturn', amount_centavos: 15050 }).then([]);
    const part = returnedEvent([ret('D1', 15000)]);
    given(createdEvent, completed, part)
      .when({ type: 'CheckSandboxReturn', amount_centavos: 51 })
      .thenRefuses(validation('body.amount must be at most what is left to return of the payout: 0.50'));
    const whole = returnedEvent([ret('D1', 15050)]);
    given(createdEvent, completed, whole)
      .when({ type: 'CheckSandboxReturn', amount_centavos: undefined })
      .thenRefuses(validation('the payout has already been returned in full'));
    given().when({ type: 'CheckSandboxReturn', amount_centavos: undefined }).thenRefuses(notFound('Payout not found'));
  });
});
