import { SolicitationCreatedData } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { fold } from '@pixauto/event-store';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { solicitation, SolicitationEvent } from './solicitation';

const created: SolicitationCreatedData = {
  solicitation_id: 's1',
  recurrence_id: 'r1',
  expires_at: '2026-12-01T12:00:00.000Z',
  destination: { agency: '0001', account: '12345', document_number: '52998224725', ispb: '12345678' },
  bank: { id_solic_rec: 'SC1' },
};
const createdEvent: SolicitationEvent = { type: 'solicitation.created', data: created };
const given = DeciderSpecification.for(solicitation);
const progressed = (status: 'SENT' | 'RECEIVED'): SolicitationEvent => ({ type: 'solicitation.alert_progressed', data: { status } });

describe('solicitation', () => {
  it('is created once: a repeated creation records nothing', () => {
    given().when({ type: 'CreateSolicitation', data: created }).then([createdEvent]);
    given(createdEvent).when({ type: 'CreateSolicitation', data: created }).then([]);
  });

  it('starts CREATED and PENDING', () => {
    expect(fold(solicitation, [createdEvent])).toMatchObject({ status: 'CREATED', outcome: 'PENDING' });
  });

  it('moves the alert forward only: CREATED → SENT → RECEIVED', () => {
    given(createdEvent)
      .when({ type: 'ProgressAlert', status: 'SENT' })
      .then([progressed('SENT')]);
    given(createdEvent, progressed('RECEIVED')).when({ type: 'ProgressAlert', status: 'SENT' }).then([]);
  });

  it('records the answer once, the alert marked RECEIVED with it', () => {
    given(createdEvent, progressed('SENT'))
      .when({ type: 'RecordAnswer', answer: 'ACCEPTED' })
      .then([progressed('RECEIVED'), { type: 'solicitation.answered', data: { recurrence_id: 'r1', answer: 'ACCEPTED' } }]);
    const answered: SolicitationEvent = { type: 'solicitation.answered', data: { recurrence_id: 'r1', answer: 'REJECTED' } };
    given(createdEvent, progressed('RECEIVED'), answered).when({ type: 'RecordAnswer', answer: 'ACCEPTED' }).then([]);
  });

  it('expires only while pending: a deadline after the answer changes nothing', () => {
    given(createdEvent)
      .when({ type: 'ExpireSolicitation' })
      .then([{ type: 'solicitation.expired', data: { recurrence_id: 'r1' } }]);
    const answered: SolicitationEvent = { type: 'solicitation.answered', data: { recurrence_id: 'r1', answer: 'ACCEPTED' } };
    given(createdEvent, answered).when({ type: 'ExpireSolicitation' }).then([]);
  });

  it('cancels a solicitation not yet answered, twice alike, and refuses once answered or expired', () => {
    const cancelled: SolicitationEvent = { type: 'solicitation.cancelled', data: {} };
    given(createdEvent, progressed('RECEIVED')).when({ type: 'CancelSolicitation' }).then([cancelled]);
    expect(fold(solicitation, [createdEvent, cancelled])).toMatchObject({ status: 'CANCELLED', outcome: 'CANCELLED' });
    given(createdEvent, cancelled).when({ type: 'CancelSolicitation' }).then([]);
    given(createdEvent, { type: 'solicitation.answered', data: { recurrence_id: 'r1', answer: 'ACCEPTED' } })
      .when({ type: 'CancelSolicitation' })
      .thenRefuses(validation('the solicitation is ACCEPTED and can no longer be cancelled'));
    given(createdEvent, { type: 'solicitation.expired', data: { recurrence_id: 'r1' } })
      .when({ type: 'CancelSolicitation' })
      .thenRefuses(validation('the solicitation is EXPIRED and can no longer be cancelled'));
  });

  it('answers an unknown solicitation as not found', () => {
    given().when({ type: 'CancelSolicitation' }).thenRefuses(notFound('Solicitation not found'));
  });
});
