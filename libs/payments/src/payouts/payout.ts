import {
  FINAL_PAYOUT_STATUSES,
  PAYOUT_STATUS_NAMES,
  PayoutCreatedData,
  PayoutEventTypes,
  PayoutRecordData,
  PayoutReturnData,
  PayoutReturnedData,
  PayoutStatus,
  PayoutStatusChangedData,
  PayoutStatusCode,
  Tenant,
} from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '@pixauto/event-store';

// A payout (cash-out, docs/decisions/payouts.md): created by the merchant (status 0), then the bank's to settle:
// 0 → 4 processing → 1 completed, or 2 canceled / 3 rejected. A completed payout
// may come back from the receiving bank, whole or in part: a return (a refund of the payout), status still 1.

export type PayoutEvent =
  | DomainEvent<typeof PayoutEventTypes.created, PayoutCreatedData>
  | DomainEvent<typeof PayoutEventTypes.statusChanged, PayoutStatusChangedData>
  | DomainEvent<typeof PayoutEventTypes.returned, PayoutReturnedData>;

export type PayoutState = { status: 'NONE' } | { status: 'EXISTS'; payout: PayoutRecordData };

/** What the bank said of the payout: its status and what it learnt (the beneficiary's name and institution, ids). */
export interface BankPayoutNotice {
  status: PayoutStatusCode;
  name: string | null;
  bank: { bank_name: string | null; bank_code: string | null; ispb: string | null; account_agency: string | null; account_number: string | null };
  e2e: string | null;
  psp_id: string | null;
  paid_at: string | null;
  reason: string | null;
}

export type PayoutCommand =
  | { type: 'CreatePayout'; payout: PayoutRecordData }
  /** The sandbox moves a payout: refused once it is final, before the bank hears of it. */
  | { type: 'CheckSandboxStatusChange'; to: PayoutStatusCode }
  | { type: 'RecordBankNotice'; notice: BankPayoutNotice }
  /** The sandbox's receiving bank is about to return the payout: judged before the bank hears of it. */
  | { type: 'CheckSandboxReturn'; amount_centavos: number | undefined }
  /** The bank reports a return (its notice carries every return of the payout: the ones known already change nothing). */
  | { type: 'RecordReturn'; return: PayoutReturnData };

export const PAYOUT_STREAM = 'payout';
export const payoutStreamId = (tenant: Tenant, id: number): string => `${PAYOUT_STREAM}:${tenant.accountId}:${tenant.environment}:${id}`;

/** The bank's answers may come twice or late (a callback and a reconciliation): only forward moves count. */
const FORWARD: Record<PayoutStatusCode, readonly PayoutStatusCode[]> = {
  [PayoutStatus.created]: [PayoutStatus.processing, PayoutStatus.completed, PayoutStatus.canceled, PayoutStatus.rejected],
  [PayoutStatus.processing]: [PayoutStatus.completed, PayoutStatus.canceled, PayoutStatus.rejected],
  [PayoutStatus.completed]: [],
  [PayoutStatus.canceled]: [],
  [PayoutStatus.rejected]: [],
};

export const isFinalPayoutStatus = (status: PayoutStatusCode): boolean => FINAL_PAYOUT_STATUSES.includes(status);
/** Whether the bank's status moves a payout on from where it is (a repeat or a late notice does not). */
export const movesPayout = (from: PayoutStatusCode, to: PayoutStatusCode): boolean => FORWARD[from].includes(to);

/** The record after the bank's notice: what it learnt fills in, what it did not know keeps what we had. */
function withNotice(payout: PayoutRecordData, notice: BankPayoutNotice): PayoutRecordData {
  const bank = notice.bank;
  return {
    ...payout,
    status: notice.status,
    name: notice.name ?? payout.name,
    bank: {
      type: 'PIX',
      bank_name: bank.bank_name ?? payout.bank.bank_name,
      bank_code: bank.bank_code ?? payout.bank.bank_code,
      ispb: bank.ispb ?? payout.bank.ispb,
      account_agency: bank.account_agency ?? payout.bank.account_agency,
      account_number: bank.account_number ?? payout.bank.account_number,
    },
    e2e: notice.e2e ?? payout.e2e,
    psp_id: notice.psp_id ?? payout.psp_id,
    paid_at: notice.status === PayoutStatus.completed ? (notice.paid_at ?? payout.paid_at) : payout.paid_at,
  };
}

export const payout: Decider<PayoutCommand, PayoutEvent, PayoutState> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    switch (command.type) {
      case 'CreatePayout':
        return state.status === 'NONE' ? accept({ type: PayoutEventTypes.created, data: { payout: command.payout } }) : accept();
      case 'CheckSandboxStatusChange': {
        if (state.status === 'NONE') return reject(notFound(Messages.payouts.notFound));
        const from = state.payout.status;
        return isFinalPayoutStatus(from) ? reject(validation(Messages.payouts.ended(from, PAYOUT_STATUS_NAMES[from]))) : accept();
      }
      case 'RecordBankNotice': {
        if (state.status === 'NONE') return reject(notFound(Messages.payouts.notFound));
        const from = state.payout.status;
        const to = command.notice.status;
        if (!movesPayout(from, to)) return accept();
        return accept({
          type: PayoutEventTypes.statusChanged,
          data: { payout: withNotice(state.payout, command.notice), from, to, reason: command.notice.reason },
        });
      }
      case 'CheckSandboxReturn': {
        if (state.status === 'NONE') return reject(notFound(Messages.payouts.notFound));
        const p = state.payout;
        if (p.status !== PayoutStatus.completed) return reject(validation(Messages.payouts.notReturnable(p.status, PAYOUT_STATUS_NAMES[p.status])));
        const left = p.amount_centavos - returnedCentavos(p);
        if (left <= 0) return reject(validation(Messages.payouts.fullyReturned));
        if (command.amount_centavos !== undefined && command.amount_centavos > left)
          return reject(validation(Messages.payouts.returnExceeds((left / 100).toFixed(2))));
        return accept();
      }
      case 'RecordReturn': {
        if (state.status === 'NONE') return reject(notFound(Messages.payouts.notFound));
        const p = state.payout;
        if ((p.returns ?? []).some((r) => r.rtr_id === command.return.rtr_id)) return accept();
        return accept({ type: PayoutEventTypes.returned, data: { payout: { ...p, returns: [...(p.returns ?? []), command.return] }, return: command.return } });
      }
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case PayoutEventTypes.created:
      case PayoutEventTypes.statusChanged:
      case PayoutEventTypes.returned:
        return { status: 'EXISTS', payout: event.data.payout };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};

/** What the receiving bank has sent back of the payout. */
export const returnedCentavos = (p: PayoutRecordData): number => (p.returns ?? []).reduce((sum, r) => sum + r.amount_centavos, 0);
