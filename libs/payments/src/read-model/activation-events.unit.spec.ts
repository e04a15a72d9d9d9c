import { RecurrenceEventTypes } from '@pixauto/contracts';
import { concernsActivation } from './pix-charges.projection';

// payments-service follows every recurrence event but opens a transaction only for those that touch an activation.

const created = (activation: object | null) => ({ type: RecurrenceEventTypes.created, data: { activation } });
const approved = (journey: string) => ({ type: RecurrenceEventTypes.approved, data: { journey } });

describe('concernsActivation', () => {
  it('takes a creation that carries an activation, and a journey 3 approval', () => {
    expect(concernsActivation(created({ charge_id: 'c', amount_centavos: 4000 }))).toBe(true);
    expect(concernsActivation(approved('JOURNEY_3'))).toBe(true);
  });

  it('passes over a creation without one, other journeys and every other event', () => {
    expect(concernsActivation(created(null))).toBe(false);
    expect(concernsActivation(approved('JOURNEY_2'))).toBe(false);
    expect(concernsActivation(approved('JOURNEY_1'))).toBe(false);
    expect(concernsActivation({ type: RecurrenceEventTypes.rejected, data: {} })).toBe(false);
  });
});
