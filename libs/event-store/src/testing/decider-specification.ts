import { joinProblems, Refusal } from '@pixauto/errors';
import { Decider, Decision, DomainEvent, fold } from '../decider';

// Test support only (@pixauto/event-store/testing, never the lib's own entry point): a decider's unit tests as given/when/then, after emmett's
// DeciderSpecification. Given the stream's past events, when a command is decided, then these events or this refusal:
//
//   const given = DeciderSpecification.for(recurrence);
//   given(created).when({ type: 'ExpireRecurrence' }).then([{ type: 'recurrence.expired', data: {} }]);
//   given(created, cancelled).when(cancel).then([]);                       // accepted, nothing recorded
//   given().when(cancel).thenRefuses(notFound('Recurrence not found'));    // the exact refusal
//   given(created, approved).when(reject).thenRefuses('the recurrence is APPROVED: ...'); // or its message alone

/** Each field optional, all the way down: what toMatchObject checks. */
export type DeepPartial<T> = T extends (infer U)[] ? DeepPartial<U>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

export interface DeciderThen<E extends DomainEvent> {
  /** The command is accepted and records exactly these events, in this order (`[]`: accepted, nothing recorded). */
  then(expected: E[]): void;
  /** The command is accepted and records as many events as given, each with at least the fields given (toMatchObject). */
  thenMatches(expected: DeepPartial<E>[]): void;
  /**
   * The command is refused: with exactly this refusal (`validation(message)`, `notFound(message)`...), or with any refusal
   * whose message is this text (a validation's problems joined as the HTTP edge joins them).
   */
  thenRefuses(expected: Refusal | string): void;
}

export interface DeciderWhen<C, E extends DomainEvent> {
  when(command: C): DeciderThen<E>;
}

/** The message a refusal answers with: a validation's problems joined, as the HTTP edge joins them. */
const messageOf = (refusal: Refusal): string => (refusal.kind === 'validation' ? joinProblems(refusal.problems) : refusal.message);

function thenOf<E extends DomainEvent>(decision: Decision<E>): DeciderThen<E> {
  return {
    then: (expected) => expect(decision).toEqual({ ok: true, events: expected }),
    thenMatches: (expected) => expect(decision).toMatchObject({ ok: true, events: expected }),
    thenRefuses: (expected) =>
      typeof expected === 'string'
        ? expect(decision.ok ? decision : { ok: false, message: messageOf(decision.refusal) }).toEqual({ ok: false, message: expected })
        : expect(decision).toEqual({ ok: false, refusal: expected }),
  };
}

export const DeciderSpecification = {
  /** `given(...pastEvents)`: the state is the decider's initial state with these events folded in. */
  for:
    <C, E extends DomainEvent, S>(decider: Decider<C, E, S>) =>
    (...events: E[]): DeciderWhen<C, E> => ({
      when: (command) => thenOf(decider.decide(command, fold(decider, events))),
    }),
};
