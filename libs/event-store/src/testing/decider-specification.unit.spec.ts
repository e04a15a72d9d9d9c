import { notFound, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '../decider';
import { DeciderSpecification } from './decider-specification';

// A counter that opens once, counts up by positive steps and refuses the rest: enough to see the helper pass and fail.

type CounterEvent = DomainEvent<'opened', { name: string }> | DomainEvent<'added', { by: number; total: number }>;
type CounterCommand = { type: 'Open'; name: string } | { type: 'Add'; by: number };
type CounterState = { status: 'none' } | { status: 'open'; total: number };

const counter: Decider<CounterCommand, CounterEvent, CounterState> = {
  initialState: { status: 'none' },
  decide(command, state) {
    if (command.type === 'Open') return state.status === 'none' ? accept({ type: 'opened', data: { name: command.name } }) : accept();
    if (state.status === 'none') return reject(notFound('Counter not found'));
    if (command.by <= 0) return reject(validation('body.by must be a positive integer', 'counters only go up'));
    return accept({ type: 'added', data: { by: command.by, total: state.total + command.by } });
  },
  evolve(state, event) {
    if (event.type === 'opened') return { status: 'open', total: 0 };
    return state.status === 'open' ? { status: 'open', total: event.data.total } : state;
  },
};

const given = DeciderSpecification.for(counter);
const opened: CounterEvent = { type: 'opened', data: { name: 'c' } };
const add = (by: number): CounterCommand => ({ type: 'Add', by });

describe('DeciderSpecification', () => {
  describe('then', () => {
    it('passes when decide records exactly these events, from the state the given events fold to', () => {
      given().when({ type: 'Open', name: 'c' }).then([opened]);
      given(opened, { type: 'added', data: { by: 2, total: 2 } })
        .when(add(3))
        .then([{ type: 'added', data: { by: 3, total: 5 } }]);
      given(opened).when({ type: 'Open', name: 'c' }).then([]);
    });

    it('fails on other events, on events in excess or missing, and on a refusal', () => {
      expect(() =>
        given(opened)
          .when(add(3))
          .then([{ type: 'added', data: { by: 3, total: 4 } }]),
      ).toThrow();
      expect(() => given(opened).when(add(3)).then([])).toThrow();
      expect(() => given(opened).when({ type: 'Open', name: 'c' }).then([opened])).toThrow();
      expect(() => given().when(add(3)).then([])).toThrow();
    });
  });

  describe('thenMatches', () => {
    it('passes when each event has at least the fields given', () => {
      given(opened)
        .when(add(3))
        .thenMatches([{ type: 'added', data: { total: 3 } }]);
    });

    it('fails on a field that differs, on another count of events, and on a refusal', () => {
      expect(() =>
        given(opened)
          .when(add(3))
          .thenMatches([{ data: { total: 4 } }]),
      ).toThrow();
      expect(() =>
        given(opened)
          .when(add(3))
          .thenMatches([{ type: 'added' }, { type: 'added' }]),
      ).toThrow();
      expect(() => given(opened).when(add(3)).thenMatches([])).toThrow();
      expect(() =>
        given()
          .when(add(3))
          .thenMatches([{ type: 'added' }]),
      ).toThrow();
    });
  });

  describe('thenRefuses', () => {
    it('passes on exactly this refusal, or on any refusal with this message', () => {
      given().when(add(1)).thenRefuses(notFound('Counter not found'));
      given().when(add(1)).thenRefuses('Counter not found');
      given(opened).when(add(0)).thenRefuses(validation('body.by must be a positive integer', 'counters only go up'));
      given(opened).when(add(0)).thenRefuses('body.by must be a positive integer. counters only go up');
    });

    it('fails on acceptance, on another refusal, another kind or another message', () => {
      expect(() => given(opened).when(add(1)).thenRefuses(notFound('Counter not found'))).toThrow();
      expect(() => given(opened).when(add(1)).thenRefuses('Counter not found')).toThrow();
      expect(() => given(opened).when({ type: 'Open', name: 'c' }).thenRefuses('Counter not found')).toThrow();
      expect(() => given().when(add(1)).thenRefuses(validation('Counter not found'))).toThrow();
      expect(() => given().when(add(1)).thenRefuses('Counter not found!')).toThrow();
      expect(() => given(opened).when(add(0)).thenRefuses(validation('body.by must be a positive integer'))).toThrow();
      expect(() => given(opened).when(add(0)).thenRefuses('body.by must be a positive integer')).toThrow();
    });
  });
});
