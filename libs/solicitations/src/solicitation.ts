import {
  AlertProgressedData,
  SolicitationAnswer,
  SolicitationAnsweredData,
  SolicitationCreatedData,
  SolicitationEventTypes,
  SolicitationExpiredData,
  SolicitationStatus,
  Tenant,
} from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '@pixauto/event-store';

// A solicitation: the alert that asks the payer, in their banking app, to authorize a recurrence.
// Its status is the alert's path; the payer's decision is its outcome, and shows on the recurrence.

export type SolicitationEvent =
  | DomainEvent<typeof SolicitationEventTypes.created, SolicitationCreatedData>
  | DomainEvent<typeof SolicitationEventTypes.alertProgressed, AlertProgressedData>
  | DomainEvent<typeof SolicitationEventTypes.answered, SolicitationAnsweredData>
  | DomainEvent<typeof SolicitationEventTypes.expired, SolicitationExpiredData>
  | DomainEvent<typeof SolicitationEventTypes.cancelled, Record<string, never>>;

/** PENDING until the payer answers, the deadline passes or the merchant cancels. */
export type SolicitationOutcome = 'PENDING' | SolicitationAnswer | 'EXPIRED' | 'CANCELLED';

export interface Solicitation {
  status: SolicitationStatus;
  outcome: SolicitationOutcome;
  data: SolicitationCreatedData;
}

export type SolicitationState = { status: 'NONE' } | Solicitation;

export type SolicitationCommand =
  | { type: 'CreateSolicitation'; data: SolicitationCreatedData }
  | { type: 'ProgressAlert'; status: AlertProgressedData['status'] }
  | { type: 'RecordAnswer'; answer: SolicitationAnswer }
  | { type: 'ExpireSolicitation' }
  | { type: 'CancelSolicitation' };

export const SOLICITATION_STREAM = 'solicitation';
export const solicitationStreamId = (tenant: Tenant, solicitationId: string): string =>
  `${SOLICITATION_STREAM}:${tenant.accountId}:${tenant.environment}:${solicitationId}`;

const ALERT_ORDER: Record<SolicitationStatus, number> = { CREATED: 0, SENT: 1, RECEIVED: 2, CANCELLED: 3 };

export const solicitation: Decider<SolicitationCommand, SolicitationEvent, SolicitationState> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    if (command.type === 'CreateSolicitation') {
      return state.status === 'NONE' ? accept({ type: SolicitationEventTypes.created, data: command.data }) : accept();
    }
    if (state.status === 'NONE') return reject(notFound(Messages.solicitations.notFound));
    switch (command.type) {
      case 'ProgressAlert':
        // The alert only moves forward, and not once the solicitation is over.
        return state.outcome === 'PENDING' && ALERT_ORDER[command.status] > ALERT_ORDER[state.status]
          ? accept({ type: SolicitationEventTypes.alertProgressed, data: { status: command.status } })
          : accept();
      case 'RecordAnswer': {
        if (state.outcome !== 'PENDING') return accept();
        const events: SolicitationEvent[] = [];
        // An answer means the alert arrived, whether or not we saw it arrive.
        if (state.status !== 'RECEIVED') events.push({ type: SolicitationEventTypes.alertProgressed, data: { status: 'RECEIVED' } });
        events.push({ type: SolicitationEventTypes.answered, data: { recurrence_id: state.data.recurrence_id, answer: command.answer } });
        return accept(...events);
      }
      case 'ExpireSolicitation':
        // A deadline that fires after the answer changes nothing.
        return state.outcome === 'PENDING' ? accept({ type: SolicitationEventTypes.expired, data: { recurrence_id: state.data.recurrence_id } }) : accept();
      case 'CancelSolicitation':
        if (state.outcome === 'CANCELLED') return accept();
        return state.outcome === 'PENDING'
          ? accept({ type: SolicitationEventTypes.cancelled, data: {} })
          : reject(validation(Messages.solicitations.ended(state.outcome)));
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(state, event) {
    if (event.type === SolicitationEventTypes.created) return { status: 'CREATED', outcome: 'PENDING', data: event.data };
    if (state.status === 'NONE') return state;
    switch (event.type) {
      case SolicitationEventTypes.alertProgressed:
        return { ...state, status: event.data.status };
      case SolicitationEventTypes.answered:
        return { ...state, outcome: event.data.answer };
      case SolicitationEventTypes.expired:
        return { ...state, outcome: 'EXPIRED' };
      case SolicitationEventTypes.cancelled:
        return { ...state, status: 'CANCELLED', outcome: 'CANCELLED' };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};
