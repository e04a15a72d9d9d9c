import {
  DueDateChargeChangedData,
  DueDateChargeChanges,
  DueDateChargeEventTypes,
  DueDateChargeRecordData,
  DueDateChargeStatus,
  dueDateTermsProblems,
  Tenant,
} from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '@pixauto/event-store';
import { amountDueOn, compareDates, lastPayableDay } from '@pixauto/pix';

// A due-date Pix charge (BCB cobv; docs/decisions/due-date-charges.md): created PENDING by the merchant, changed or
// cancelled while PENDING, PAID by the payer with the amount of the day they pay, EXPIRED once its last payable day
// has passed. Every event carries the whole charge after the change.

export type DueDateChargeEvent =
  | DomainEvent<typeof DueDateChargeEventTypes.created, DueDateChargeChangedData>
  | DomainEvent<typeof DueDateChargeEventTypes.changed, DueDateChargeChangedData>
  | DomainEvent<typeof DueDateChargeEventTypes.cancelled, DueDateChargeChangedData>
  | DomainEvent<typeof DueDateChargeEventTypes.paid, DueDateChargeChangedData>
  | DomainEvent<typeof DueDateChargeEventTypes.expired, DueDateChargeChangedData>;

export type DueDateChargeState = { status: 'NONE' } | { status: DueDateChargeStatus; charge: DueDateChargeRecordData };

/** A payment the bank settled: when, on which Brasília day (its amount is that day's), and its end-to-end id. */
export interface DueDatePayment {
  paid_at: string;
  day: string;
  e2e_id: string | null;
}

/** `today` is the tenant's Brasília date and `at` its instant (ISO 8601, UTC), both from the clock. */
export type DueDateChargeCommand =
  | { type: 'CreateDueDateCharge'; charge: DueDateChargeRecordData }
  | { type: 'ChangeDueDateCharge'; changes: DueDateChargeChanges; today: string; at: string }
  | { type: 'CancelDueDateCharge'; at: string }
  /** The sandbox payer is about to pay on `today`: refused, before the bank hears of it, unless PENDING and payable that day. */
  | { type: 'CheckPayable'; today: string }
  | { type: 'RecordPayment'; payment: DueDatePayment }
  | { type: 'ExpireDueDateCharge'; today: string; at: string };

export const DUE_DATE_CHARGE_STREAM = 'due_date_charge';
/** Keyed by transaction_id, unique per tenant: a second charge with the same one lands on the same stream and is refused. */
export const dueDateChargeStreamId = (tenant: Tenant, transactionId: string): string =>
  `${DUE_DATE_CHARGE_STREAM}:${tenant.accountId}:${tenant.environment}:${transactionId}`;

const D = Messages.dueDateCharges;

export const dueDateCharge: Decider<DueDateChargeCommand, DueDateChargeEvent, DueDateChargeState> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    if (command.type === 'CreateDueDateCharge')
      return state.status === 'NONE'
        ? accept({ type: DueDateChargeEventTypes.created, data: { charge: { ...command.charge, status: 'PENDING', revision: 0 } } })
        : reject(validation(Messages.transactions.transactionIdTaken));
    if (state.status === 'NONE') return reject(notFound(D.notFound));
    const charge = state.charge;
    switch (command.type) {
      case 'ChangeDueDateCharge': {
        if (state.status !== 'PENDING') return reject(validation(D.notChangeable(state.status)));
        const changed: DueDateChargeRecordData = { ...charge, ...command.changes, revision: charge.revision + 1, updated_at: command.at };
        const problems = dueDateTermsProblems(changed, command.today);
        if (problems.length > 0) return reject(validation(...problems));
        return accept({ type: DueDateChargeEventTypes.changed, data: { charge: changed } });
      }
      case 'CancelDueDateCharge':
        // Cancelling again answers the charge as it is.
        if (state.status === 'CANCELLED') return accept();
        if (state.status !== 'PENDING') return reject(validation(D.notCancellable(state.status)));
        return accept({
          type: DueDateChargeEventTypes.cancelled,
          data: { charge: { ...charge, status: 'CANCELLED', pix_copy_paste: null, updated_at: command.at } },
        });
      case 'CheckPayable':
        if (state.status !== 'PENDING') return reject(validation(D.notPayable(state.status)));
        return compareDates(command.today, lastPayableDay(charge)) <= 0 ? accept() : reject(validation(D.pastValidity(lastPayableDay(charge))));
      case 'RecordPayment': {
        // Paid once: the sandbox's answer and the bank's notification of the same payment are one event. Money that
        // reached a charge as it expired or was cancelled is a payment all the same, of the amount of its last day.
        if (state.status === 'PAID') return accept();
        const p = command.payment;
        const paid = amountDueOn(charge, p.day) ?? amountDueOn(charge, lastPayableDay(charge));
        return accept({
          type: DueDateChargeEventTypes.paid,
          data: {
            charge: { ...charge, status: 'PAID', paid_at: p.paid_at, updated_at: p.paid_at, e2e_id: p.e2e_id, paid: paid ?? null, pix_copy_paste: null },
          },
        });
      }
      case 'ExpireDueDateCharge':
        if (state.status !== 'PENDING' || compareDates(command.today, lastPayableDay(charge)) <= 0) return accept();
        return accept({
          type: DueDateChargeEventTypes.expired,
          data: { charge: { ...charge, status: 'EXPIRED', pix_copy_paste: null, updated_at: command.at } },
        });
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(_state, event) {
    return { status: event.data.charge.status, charge: event.data.charge };
  },
};
