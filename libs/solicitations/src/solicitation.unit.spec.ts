import { SolicitationCreatedData } from '@pixauto/contracts';
import { fold } from '@pixauto/event-store';
import { solicitation, SolicitationCommand, SolicitationEvent } from './solicitation';

const created: SolicitationCreatedData = {
  solicitation_id: 's1',
  recurrence_id: 'r1',
  expires_at: '2026-12-01T12:00:00.000Z',
  destination: { agency: '0001', account: '12345', document_number: '52998224725', ispb: '12345678' },
  bank: { id_solic_rec: 'SC1' },
};
const createdEvent: SolicitationEvent = { type: 'solicitation.created', data: created };
const decide = (command: SolicitationCommand, ...history: SolicitationEvent[]) => solicitation.decide(command, fold(solicitation, history));
const progressed = (status: 'SENT' | 'RECEIVED'): SolicitationEvent => ({ type: 'solicitation.alert_progressed', data: { status } });

describe('solicitation', () => {
  it('starts CREATED and PENDING', () => {
    expect(fold(solicitation, [createdEvent])).toMatchObject({ status: 'CREATED', outcome: 'PENDING' });
  });

  it('moves the alert forward only: CREATED → SENT → RECEIVED', () => {
    expect(decide({ type: 'ProgressAlert', status: 'SENT' }, createdEvent)).toEqual({ ok: true, events: [progressed('SENT')] });
    expect(decide({ type: 'ProgressAlert', status: 'SENT' }, createdEvent, progressed('RECEIVED'))).toEqual({ ok: true, events: [] });
  });

  it('records the answer once, the alert marked RECEIVED with it', () => {
    expect(decide({ type: 'RecordAnswer', answer: 'ACCEPTED' }, createdEvent, progressed('SENT'))).toEqual({
      ok: true,
      events: [progressed('RECEIVED'), { type: 'solicitation.answered', data: { recurrence_id: 'r1', answer: 'ACCEPTED' } }],
    });
    const answered: SolicitationEvent = { type: 'solicitation.answered', data: { recurrence_id: 'r1', answer: 'REJECTED' } };
    expect(decide({ type: 'RecordAnswer', answer: 'ACCEPTED' }, createdEvent, progressed('RECEIVED'), answered)).toEqual({ ok: true, events: [] });
  });

  it('expires only while pending: a deadline after the answer changes nothing', () => {
    expect(decide({ type: 'ExpireSolicitation' }, createdEvent)).toEqual({ ok: true, events: [{ type: 'solicitation.expired', data: { recurrence_id: 'r1' } }] });
    const answered: SolicitationEvent = { type: 'solicitation.answered', data: { recurrence_id: 'r1', answer: 'ACCEPTED' } };
    expect(decide({ type: 'ExpireSolicitation' }, createdEvent, answered)).toEqual({ ok: true, events: [] });
  });

  it('cancels a solicitation not yet answered, twice alike, and refuses once answered or expired', () => {
    const cancelled: SolicitationEvent = { type: 'solicitation.cancelled', data: {} };
    expect(decide({ type: 'CancelSolicitation' }, createdEvent, progressed('RECEIVED'))).toEqual({ ok: true, events: [cancelled] });
    expect(fold(solicitation, [createdEvent, cancelled])).toMatchObject({ status: 'CANCELLED', outcome: 'CANCELLED' });
    expect(decide({ type: 'CancelSolicitation' }, createdEvent, cancelled)).toEqual({ ok: true, events: [] });
    expect(decide({ type: 'CancelSolicitation' }, createdEvent, { type: 'solicitation.answered', data: { recurrence_id: 'r1', answer: 'ACCEPTED' } })).toEqual({
      ok: false,
      refusal: { kind: 'validation', problems: ['the solicitation is ACCEPTED and can no longer be cancelled'] },
    });
    expect(decide({ type: 'CancelSolicitation' }, createdEvent, { type: 'solicitation.expired', data: { recurrence_id: 'r1' } })).toMatchObject({ ok: false });
  });

  it('answers an unknown solicitation as not found', () => {
    expect(decide({ type: 'CancelSolicitation' })).toEqual({ ok: false, refusal: { kind: 'not_found', message: 'Solicitation not found' } });
  });
});
